"""Subscripts on tensors and tiles (lowering/frontend/subscripts.py) and the reference's write /
view type rules, as data.

- tests/subscript_pairs/: each file holds a program written with subscripts, then the line
  `# == the same, written out ==`, then the same program written with the op calls the
  reference's parser lowers the subscripts to. Both parse to the same program and print the
  same text, the text reads back, and both compile to the same program (or, when the first
  line is `# compile-error: TEXT`, both fail to compile with that located error: a limit of a
  later pass, not of the subscripts).
- tests/subscript_numerics/: kernels whose first line `# expect: STATEMENTS` says, in NumPy over
  the kernel's parameters, what the kernel does to its `out` tensor; `pl.interpret` must compute
  exactly that, before and after `pl.compile`.
- tests/type_rule_kernels/: kernels whose annotations state the result types the reference's type
  rules give (an annotation that disagrees is an error): they parse, print, read back and
  compile.
- What stays refused (as in the reference) is in tests/error_fixtures/subscript_*.py and the
  bounds fixtures next to them (tests/test_diagnostics.py runs them).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import pl
from pl.errors import PlError
from pl.interpreter.run import entry_function
from pl.ir import Program, TensorType, static_shape

HERE = Path(__file__).resolve().parent
PAIRS = sorted((HERE / "subscript_pairs").glob("*.py"))
NUMERICS = sorted((HERE / "subscript_numerics").glob("*.py"))
TYPE_RULES = sorted((HERE / "type_rule_kernels").glob("*.py"))
MARK = "# == the same, written out =="


def _halves(path: Path) -> tuple[Program, Program]:
    sugar, explicit = path.read_text().split(MARK)
    a, b = pl.parse(sugar, filename=f"{path}:sugar"), pl.parse(explicit, filename=f"{path}:explicit")
    assert isinstance(a, Program) and isinstance(b, Program)
    return a, b


def test_there_are_pairs_and_numerics() -> None:
    assert len(PAIRS) >= 3 and len(NUMERICS) >= 5


@pytest.mark.parametrize("path", PAIRS, ids=lambda p: p.stem)
def test_subscripts_lower_to_the_reference_calls(path: Path) -> None:
    sugar, explicit = _halves(path)
    text = pl.python_print(sugar)
    assert text == pl.python_print(explicit)
    pl.assert_structural_equal(sugar, explicit)
    again = pl.parse(text)
    pl.assert_structural_equal(again, sugar)
    first = path.read_text().splitlines()[0]
    if first.startswith("# compile-error: "):
        for program in (sugar, explicit):
            with pytest.raises(PlError, match=re.escape(first.removeprefix("# compile-error: "))) \
                    as info:
                pl.compile(program, backend="910B", verify=True)
            assert info.value.span is not None and info.value.span.line > 0
        return
    compiled = pl.compile(sugar, backend="910B", verify=True)
    assert pl.python_print(compiled.program) == pl.python_print(
        pl.compile(explicit, backend="910B", verify=True).program)
    pl.assert_structural_equal(pl.parse(compiled.as_python()), compiled.program)


def _inputs(program: Program, seed: int) -> dict[str, np.ndarray[Any, Any]]:
    rng = np.random.default_rng(seed)
    out: dict[str, np.ndarray[Any, Any]] = {}
    for p in entry_function(program).params:
        assert isinstance(p.type, TensorType)
        shape = static_shape(p.type.shape)
        assert shape is not None
        out[p.name] = rng.standard_normal(shape).astype(np.float32)
    return out


@pytest.mark.parametrize("path", NUMERICS, ids=lambda p: p.stem)
@pytest.mark.parametrize("backend", [None, "910B", "950"])
def test_interpreter_computes_what_the_hardware_writes(path: Path, backend: str | None) -> None:
    text = path.read_text()
    statements = text.splitlines()[0].removeprefix("# expect: ")
    program = pl.parse(text, filename=str(path))
    assert isinstance(program, Program)
    compiled = pl.compile(program, backend=backend, verify=True).program
    for seed in (0, 1):
        given = _inputs(program, seed)
        expected = {k: v.copy() for k, v in given.items()}
        exec(statements.replace(" ; ", "\n"), {"np": np}, expected)  # noqa: S102 - test data
        for prog in (program, compiled):
            args = {k: v.copy() for k, v in given.items()}
            pl.interpret(prog, *args.values())
            assert np.array_equal(args["out"], expected["out"]), (path.stem, backend, seed)


@pytest.mark.parametrize("path", TYPE_RULES, ids=lambda p: p.stem)
def test_result_types_are_the_reference_s(path: Path) -> None:
    program = pl.parse(path.read_text(), filename=str(path))
    assert isinstance(program, Program)
    text = pl.python_print(program)
    pl.assert_structural_equal(pl.parse(text), program)
    compiled = pl.compile(program, backend="910B", verify=True)
    pl.assert_structural_equal(pl.parse(compiled.as_python()), compiled.program)
