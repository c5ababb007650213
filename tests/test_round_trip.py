"""The master invariants on every program the tests hold as data (examples are in test_examples):
printing then parsing gives a structurally equal program that prints the same text, and the
compiled program does too; compiling is idempotent."""

from __future__ import annotations

from pathlib import Path

import pytest
from infer_cases.cases import CASES as INFER_CASES
from test_residency import CASES as RESIDENCY_CASES

import pl
from pl.ir import Program

REFERENCE = sorted((Path(__file__).resolve().parent / "reference_output").glob("*.py"))
# Kernels for forms whose printed text reads back only through a rule of the parser.
KERNELS = sorted((Path(__file__).resolve().parent / "round_trip_kernels").glob("*.py"))
OP_KERNELS = sorted((Path(__file__).resolve().parent / "op_kernels").glob("*.py"))


def _sources() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for c in INFER_CASES:
        out += [(f"infer:{c.name}:Before", c.source("Before")),
                (f"infer:{c.name}:Expected", c.source("Expected"))]
    out += [(f"residency:{c[0]}", c[1]) for c in RESIDENCY_CASES]
    out += [(f"reference:{p.name}", p.read_text(encoding="utf-8")) for p in REFERENCE]
    out += [(f"kernel:{p.name}", p.read_text(encoding="utf-8")) for p in KERNELS]
    out += [(f"op_kernel:{p.name}", p.read_text(encoding="utf-8")) for p in OP_KERNELS]
    return out


SOURCES = _sources()


def _round_trip(program: Program, label: str) -> None:
    text = pl.python_print(program)
    again = pl.parse(text, filename=f"<{label}>")
    pl.assert_structural_equal(again, program)
    assert pl.python_print(again) == text


@pytest.mark.parametrize(("label", "source"), SOURCES, ids=[s[0] for s in SOURCES])
def test_program_and_its_compiled_form_round_trip(label: str, source: str) -> None:
    program = pl.parse(source, filename=f"<{label}>")
    assert isinstance(program, Program)
    _round_trip(program, label)
    try:
        compiled = pl.compile(program, backend="910B")
    except pl.PlError as e:
        # Scenarios that reproduce a reference quirk keep a constraint violation on purpose.
        assert "requires" in e.message, e.message
        return
    _round_trip(compiled.program, label + ":compiled")
    infer = pl.passes.infer_tile_memory_space("910B")
    pl.assert_structural_equal(infer(compiled.program), compiled.program)


def test_there_are_many_programs() -> None:
    assert len(SOURCES) > 100


def test_a_dispatch_keeps_its_device() -> None:
    """`device=` on an orchestrator's call is kept on the call and printed back as written."""
    path = Path(__file__).resolve().parent / "round_trip_kernels" / "dispatch_to_a_device.py"
    printed = pl.python_print(pl.parse(path.read_text(encoding="utf-8")))
    assert "self.orch(x, device=d)" in printed and "self.orch(x, device=1)" in printed


@pytest.mark.parametrize("path", KERNELS, ids=[p.stem for p in KERNELS])
def test_round_trip_kernels_compute_the_same_compiled(path: Path) -> None:
    """Compiling keeps what each of these kernels computes (interpreted where it has numerics)."""
    from interpret_support import compare_results

    program = pl.parse(path.read_text(encoding="utf-8"), filename=str(path))
    assert isinstance(program, Program)
    for backend in (None, "910B"):
        verdict = compare_results(program, pl.compile(program, backend=backend).program)
        assert not verdict.startswith("differs"), verdict
