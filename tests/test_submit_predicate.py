"""Dispatch predicates the reference accepts stay accepted (lowering/frontend/predicate.py).

Each kernel in tests/predicate_cases/ launches tasks with `predicate=` (pl.submit, pl.spmd_submit,
`with pl.spmd(...)`), in the shapes the runtime evaluates: it parses, compiles for every backend,
and its printed form, before and after compiling, reads back to the same text with every
predicate kept. The refused shapes are error fixtures (tests/error_fixtures/*predicate*.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import pl
from pl.ir import Program

CASES = sorted((Path(__file__).resolve().parent / "predicate_cases").glob("*.py"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
@pytest.mark.parametrize("backend", [None, "910B"])
def test_predicate_kept_through_compile_and_print(path: Path, backend: str | None) -> None:
    source = path.read_text()
    program = pl.parse(source)
    assert isinstance(program, Program)
    written = source.count("predicate=(")
    assert written > 0
    for text in (pl.python_print(program),
                 pl.python_print(pl.compile(program, backend=backend).program)):
        assert pl.python_print(pl.parse(text)) == text
        assert text.count("predicate=") == written, text
