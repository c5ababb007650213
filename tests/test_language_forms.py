"""Forms the reference's parser accepts that `pl` reads the same way (issue 17, language surface).

Each kernel in tests/language_forms/ parses, compiles for every backend, prints to text that
parses back to the same printed text, and computes the same before and after `pl.compile` (a
kernel whose first line is `# no-interpret: OP` uses an op `pl.interpret` has no numerics for);
each `# printed: TEXT` line names text the printed program keeps before and after compiling. What
stays refused is in tests/error_fixtures/ (checked by tests/test_diagnostics.py).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import pl
from pl.errors import PlError
from pl.ir import Program

FORMS = sorted((Path(__file__).resolve().parent / "language_forms").glob("*.py"))


def _inputs(m: int) -> list[object]:
    x = np.random.default_rng(m).standard_normal((16, 16)).astype(np.float32)
    return [x, np.zeros((16, 16), np.float32), m]


def _run(program: Program, args: list[object]) -> list[np.ndarray]:
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    result = pl.interpret(program, *copies)
    results = result if isinstance(result, tuple) else (result,)
    return [np.asarray(r) for r in results] + [a for a in copies if isinstance(a, np.ndarray)]


@pytest.mark.parametrize("path", FORMS, ids=[p.stem for p in FORMS])
@pytest.mark.parametrize("backend", [None, "910B"])
def test_form_compiles_prints_and_computes_the_same(path: Path, backend: str | None) -> None:
    program = pl.parse(path.read_text())
    assert isinstance(program, Program)
    text = pl.python_print(program)
    assert pl.python_print(pl.parse(text)) == text  # the printed form reads back unchanged
    compiled = pl.compile(program, backend=backend).program
    compiled_text = pl.python_print(compiled)
    assert pl.python_print(pl.parse(compiled_text)) == compiled_text
    for line in path.read_text().splitlines():
        if line.startswith("# printed: "):  # what the user wrote must survive, as written
            kept = line.removeprefix("# printed: ")
            assert kept in text and kept in compiled_text, (kept, compiled_text)
        if line.startswith("# source printed: "):  # a scope compilation outlines: the source
            assert line.removeprefix("# source printed: ") in text, text
        if line.startswith("# compiled printed: "):  # ... and the scope left around the call
            assert line.removeprefix("# compiled printed: ") in compiled_text, compiled_text
    first = path.read_text().splitlines()[0]
    if first.startswith("# no-interpret: "):  # an op the interpreter has no numerics for
        with pytest.raises(PlError, match=first.removeprefix("# no-interpret: ")):
            _run(program, _inputs(0))
        return
    for m in (0, 2, 5):
        expected = _run(program, _inputs(m))
        got = _run(compiled, _inputs(m))
        assert len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            assert np.array_equal(g, e), (path.stem, backend, m)
