"""Every kernel in examples/ loads, round-trips through the printer, and compiles idempotently."""

from __future__ import annotations

from pathlib import Path

import pytest

import pl
from pl.ir.function import Program
from pl.show_inferred.cli import load_programs

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.py"))
BACKENDS = [None, "910B", "950"]


def _programs() -> list[tuple[str, Program]]:
    out = []
    for path in EXAMPLES:
        for program in load_programs(path):
            out.append((f"{path.stem}:{program.name}", program))
    return out


PROGRAMS = _programs()


def test_examples_are_there() -> None:
    assert len(EXAMPLES) >= 4


@pytest.mark.parametrize(("label", "program"), PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_round_trip(label: str, program: Program) -> None:
    text = pl.python_print(program)
    again = pl.parse(text, filename=f"<{label}>")
    pl.assert_structural_equal(again, program)
    assert pl.python_print(again) == text


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("label", "program"), PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_compiles_verifies_and_is_idempotent(label: str, program: Program, backend: str | None) -> None:
    compiled = pl.compile(program, backend=backend, verify=True)
    pl.passes.verify_tile_memory_inferred(compiled.program)
    infer = pl.passes.infer_tile_memory_space(backend)
    pl.assert_structural_equal(infer(compiled.program), compiled.program)
    text = compiled.as_python()
    again = pl.parse(text, filename=f"<{label}-compiled>")
    pl.assert_structural_equal(again, compiled.program)
    assert pl.python_print(again) == text
