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
- Generated windows (hypothesis): a subscript read and write over random bounds computes what
  NumPy's slicing of the same bounds computes.
- What stays refused (as in the reference) is in tests/error_fixtures/subscript_*.py and the
  bounds fixtures next to them (tests/test_diagnostics.py runs them).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from interpret_support import compare_results

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


@pytest.mark.parametrize("path", PAIRS, ids=lambda p: p.stem)
@pytest.mark.parametrize("backend", [None, "910B", "950"])
def test_subscripts_compute_the_same_once_compiled(path: Path, backend: str | None) -> None:
    # tensor_writes stores a padded [16, 16] tile (valid [8, 8]) through a [1, 1, 16, 16]
    # window once compiled: the interpreter could not place it, where the source ran.
    if path.read_text().startswith("# compile-error: "):
        return
    sugar, _ = _halves(path)
    compiled = pl.compile(sugar, backend=backend).program
    assert compare_results(sugar, compiled, seeds=2) == "same"


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


# -- generated windows -----------------------------------------------------------------------------

_AXIS = st.integers(min_value=1, max_value=6).map(lambda n: 8 * n)


@st.composite
def _window(draw: st.DrawFn, extent: int) -> tuple[str, slice | int]:
    """One subscript component over an axis of `extent`, as kernel text and as a NumPy index."""
    if draw(st.booleans()) and draw(st.booleans()):
        i = draw(st.integers(0, extent - 1))
        return str(i), i
    lo = draw(st.integers(0, extent - 1))
    hi = draw(st.integers(lo + 1, extent))
    text_lo = "" if lo == 0 and draw(st.booleans()) else str(lo)
    text_hi = "" if hi == extent and draw(st.booleans()) else str(hi)
    return f"{text_lo}:{text_hi}", slice(lo, hi)


@st.composite
def _windows(draw: st.DrawFn) -> tuple[tuple[int, int], list[tuple[str, slice | int]]]:
    shape = (draw(_AXIS), draw(_AXIS))
    comps = [draw(_window(shape[0]))]
    if draw(st.booleans()):
        comps.append(draw(_window(shape[1])))
    return shape, comps


_KERNEL = """
import pl


@pl.program
class W:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[{r}, {c}], pl.FP32],
               out: pl.Out[pl.Tensor[[{r}, {c}], pl.FP32]]) -> pl.Tensor[[{r}, {c}], pl.FP32]:
        {body}
        return out
"""


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(_windows(), st.booleans())
def test_generated_windows_read_and_write_what_numpy_slices(
        case: tuple[tuple[int, int], list[tuple[str, slice | int]]], tile: bool) -> None:
    """`out[w] = pl.add(x[w], x[w])` (tensor views) or the same through a loaded tile computes
    what NumPy's `out[w] = 2 * x[w]` does, before and after compiling."""
    (r, c), comps = case
    index = ", ".join(text for text, _ in comps)
    window = tuple(ix for _, ix in comps)
    if all(isinstance(ix, int) for ix in window) and len(window) == 2:
        return  # an element, not a window (element writes are refused; see the fixtures)
    if tile and len(window) == 2 and isinstance(window[1], int) and isinstance(window[0], slice) \
            and window[0].stop - window[0].start > 1:
        # The reference's 2-D floor turns a column window `t[a:b, j]` into a [1, b - a] row,
        # and writing that row back through the same subscript fills row a (no lift: the ranks
        # already agree). pl lowers it the same way; NumPy's column semantics do not apply.
        return
    if tile:  # tiles stay 2-D: a dropped axis comes back as a leading unit axis
        body = (f"t = pl.load(x, [0, 0], [{r}, {c}])\n        u = t[{index}]\n"
                f"        v = pl.add(u, u)\n        t[{index}] = v\n"
                f"        out = pl.store(t, [0, 0], out)")
    else:
        body = f"v = pl.add(x[{index}], x[{index}])\n        out[{index}] = v"
    program = pl.parse(_KERNEL.format(r=r, c=c, body=body))
    assert isinstance(program, Program)
    x = np.random.default_rng(r * 100 + c).standard_normal((r, c)).astype(np.float32)
    expected = x.copy() if tile else np.zeros_like(x)
    expected[window] = x[window] + x[window]
    for prog in (program, pl.compile(program, backend="910B", verify=True).program):
        out = np.zeros_like(x)
        pl.interpret(prog, x.copy(), out)
        assert np.array_equal(out, expected), (index, tile)
