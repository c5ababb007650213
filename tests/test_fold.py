"""Constant folding computes what the interpreter computes (pl/ir/fold.py): for random scalar
expressions over integer constants of random dtypes, with every integer operator of the IR, the
folded expression's value is the interpreted one (the same wrapped value, or the same error).

Three folders: `fold_expr` (what passes build: an unrolled loop's index times a stride), the
frontend (what the user writes with `pl.const` and literals), and `pl.unroll` end to end (the
unrolled program against the loop it came from).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import pl
from pl.errors import PlError
from pl.interpreter.execute import Machine
from pl.interpreter.run import interpret
from pl.ir import Program
from pl.ir.enums import DType
from pl.ir.expr import BinaryExpr, ConstInt, Expr
from pl.ir.fold import FOLDABLE, INT_OPS, fold_expr, fold_int, wrap_int
from pl.ir.operators import BinaryOp
from pl.lowering.tensor_to_tile.common import index_add, index_mul

SETTINGS = settings(max_examples=300, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
INT_DTYPES = (DType.INT4, DType.INT8, DType.INT16, DType.INT32, DType.INT64, DType.UINT4,
              DType.UINT8, DType.UINT16, DType.UINT32, DType.UINT64, DType.INDEX)
# The dtypes a kernel's scalars take (pl.INT4 has no NumPy counterpart in the interpreter).
KERNEL_DTYPES = tuple(d for d in INT_DTYPES if d.bits >= 8)
_SOURCE_OPS = {op.name: op.symbol for op in FOLDABLE}  # "Add": "+", ...


def _name(op: BinaryOp) -> str:
    return op.name


def _range(dt: DType) -> tuple[int, int]:
    if dt.is_signed_int():
        return -(1 << (dt.bits - 1)), (1 << (dt.bits - 1)) - 1
    return 0, (1 << dt.bits) - 1


def _values(dt: DType) -> st.SearchStrategy[int]:
    """Values of `dt`, edges often (and small shift counts)."""
    lo, hi = _range(dt)
    edges = sorted({lo, hi, lo + 1, hi - 1, 0, 1, wrap_int(-1, dt), 2, 3, dt.bits - 1, dt.bits,
                    min(hi, 64), min(hi, 65)})
    return st.one_of(st.sampled_from(edges), st.integers(lo, hi))


@st.composite
def int_exprs(draw: st.DrawFn, depth: int = 3) -> Expr:
    """A BinaryExpr tree over ConstInts; each node and leaf has its own integer dtype."""
    dt = draw(st.sampled_from(INT_DTYPES))
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return ConstInt(draw(_values(dt)), dt)
    op = draw(st.sampled_from(sorted(INT_OPS, key=_name)))
    return BinaryExpr(op, draw(int_exprs(depth - 1)), draw(int_exprs(depth - 1)), dt)


def _interpret(e: Expr) -> Any:
    try:
        return Machine(Program("p", ())).eval(e, {})
    except PlError as err:
        return ("error", err.message)


@SETTINGS
@given(int_exprs())
def test_folding_an_expression_keeps_its_interpreted_value(e: Expr) -> None:
    folded = fold_expr(e)
    assert _interpret(folded) == _interpret(e)


@SETTINGS
@given(st.sampled_from(sorted(FOLDABLE, key=_name)), st.sampled_from(INT_DTYPES), st.data())
def test_an_operation_on_two_constants_folds_to_its_interpreted_value(op: BinaryOp, dt: DType,
                                                                      data: st.DataObject) -> None:
    a, b = data.draw(_values(dt)), data.draw(_values(dt))
    e = BinaryExpr(op, ConstInt(a, dt), ConstInt(b, dt), dt)
    value = _interpret(e)
    if isinstance(value, tuple):  # no value (a division by zero...): left for the run to meet
        assert fold_int(op, a, b, dt) is None and fold_expr(e) == e
    else:
        assert fold_expr(e) == ConstInt(value, dt) and _range(dt)[0] <= value <= _range(dt)[1]


@pytest.mark.parametrize(("op", "a", "b", "dt", "want"), [
    ("Mul", 2, 1 << 62, DType.INDEX, -(1 << 63)),  # the INDEX product wraps (issue: a branch flipped)
    ("Add", (1 << 63) - 1, 1, DType.INT64, -(1 << 63)),
    ("Sub", 0, 1, DType.UINT32, (1 << 32) - 1),
    ("Mul", 100, 3, DType.INT8, 44),
    ("FloorDiv", -(1 << 63), -1, DType.INDEX, -(1 << 63)),
    ("FloorDiv", -7, 2, DType.INT32, -4),  # floors toward minus infinity
    ("FloorMod", -7, 2, DType.INT32, 1),  # the remainder takes the divisor's sign
    ("FloorMod", 7, -2, DType.INT32, -1),
    ("BitShiftLeft", 1, 63, DType.INDEX, -(1 << 63)),
    ("BitShiftLeft", 1, 64, DType.UINT64, 0),
    ("BitShiftLeft", 3, 3000000000, DType.INT64, 0),  # no gigabyte integer on the way
    ("BitShiftRight", -8, 1, DType.INT8, -4),  # arithmetic
    ("BitShiftRight", -1, 200, DType.INDEX, -1),
    ("BitShiftRight", 255, 4, DType.UINT8, 15),
])
def test_integer_arithmetic_wraps_to_the_dtype(op: str, a: int, b: int, dt: DType, want: int) -> None:
    e = BinaryExpr(BinaryOp[op], ConstInt(a, dt), ConstInt(b, dt), dt)
    assert _interpret(e) == want
    assert fold_expr(e) == ConstInt(want, dt)


@pytest.mark.parametrize(("op", "b"), [("FloorDiv", 0), ("FloorMod", 0), ("BitShiftLeft", -1),
                                       ("BitShiftRight", -3)])
def test_an_operation_without_a_value_is_not_folded_and_is_an_error_when_run(op: str, b: int) -> None:
    e = BinaryExpr(BinaryOp[op], ConstInt(5, DType.INDEX), ConstInt(b, DType.INDEX), DType.INDEX)
    assert fold_expr(e) is e
    value = _interpret(e)
    assert isinstance(value, tuple) and value[0] == "error"


# ---- the frontend: pl.const and literals fold in their dtype ------------------------------------

@st.composite
def _source_expr(draw: st.DrawFn, leaf: Any, depth: int = 3) -> str:
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        text: str = draw(leaf)
        return f"-{text}" if draw(st.integers(0, 4)) == 0 else text
    op = draw(st.sampled_from(sorted(_SOURCE_OPS)))
    return f"({draw(_source_expr(leaf, depth - 1))} {_SOURCE_OPS[op]} {draw(_source_expr(leaf, depth - 1))})"


def _scalar_kernel(dt: DType, params: int, body: list[str]) -> str:
    sig = "".join(f", a{i}: pl.Scalar[pl.{dt.name}]" for i in range(params))
    return "\n".join(["import pl", "", "", "@pl.program", "class P:", "    @pl.function",
                      f"    def main(self{sig}) -> pl.Scalar[pl.{dt.name}]:",
                      *(f"        {line}" for line in body), ""])


def _refused_where_written(err: PlError) -> None:
    """A result of the written numbers past 64 bits, a shift by 64 or more, or a negative shift
    count is refused where it is written (the interpreter refuses the last at run time)."""
    assert "does not fit in 64 bits" in err.message or "Negative shift count" in err.message, \
        err.message


def _run(text: str, args: list[int]) -> Any:
    try:
        program = pl.parse(text)
    except PlError as err:
        _refused_where_written(err)
        return None
    try:
        return interpret(program, *args)
    except PlError as err:
        return ("error", err.message)


@settings(SETTINGS, max_examples=80)
@given(st.sampled_from(KERNEL_DTYPES), st.data())
def test_the_frontend_folds_constants_as_the_interpreter_computes_them(dt: DType,
                                                                       data: st.DataObject) -> None:
    """`pl.const(v, dt)` leaves folded by the frontend, against the same expression over scalar
    parameters holding those values."""
    values: list[int] = []

    @st.composite
    def leaf(draw: st.DrawFn) -> str:
        values.append(draw(_values(dt)))
        return f"__leaf{len(values) - 1}__"

    shape = data.draw(_source_expr(leaf()))
    folded, unfolded = shape, shape
    for i, v in enumerate(values):
        folded = folded.replace(f"__leaf{i}__", f"pl.const({v}, pl.{dt.name})")
        unfolded = unfolded.replace(f"__leaf{i}__", f"a{i}")
    ann = f"pl.Scalar[pl.{dt.name}]"
    want = _run(_scalar_kernel(dt, len(values), [f"r: {ann} = {unfolded}", "return r"]), values)
    got = _run(_scalar_kernel(dt, len(values), [f"r: {ann} = {folded}", "return r"]), values)
    assume(got is not None)
    assert got == want, (folded, unfolded)


@settings(SETTINGS, max_examples=80)
@given(st.integers(-(1 << 63), (1 << 63) - 2), st.data())
def test_an_unrolled_loop_computes_what_the_loop_computes(start: int, data: st.DataObject) -> None:
    """The index of a `pl.unroll` loop in INDEX arithmetic with literals: the copies fold what the
    loop computes at run time."""
    leaf = st.one_of(st.just("i"), _values(DType.INDEX).map(str))
    expr = data.draw(_source_expr(leaf))
    text = _scalar_kernel(DType.INDEX, 1, ["r: pl.Scalar[pl.INDEX] = a0",
                                           f"for i in pl.unroll({start}, {start + 1}):",
                                           f"    r = {expr}", "return r"])
    try:
        source = pl.parse(text)
    except PlError as err:
        _refused_where_written(err)
        assume(False)
        return
    unrolled = pl.passes.unroll_loops()(source)
    results = []
    for program in (source, unrolled):
        try:
            results.append(interpret(program, 0))
        except PlError as err:
            results.append(("error", err.message))
    assert results[0] == results[1], expr


def test_the_passes_index_arithmetic_folds_as_index() -> None:
    """The offsets tensor_to_tile and auto_tile_matmul_l0 build (index_add, index_mul) fold in
    INDEX arithmetic too."""
    big = ConstInt(1 << 62, DType.INDEX)
    for built, op, b in ((index_add(big, big), BinaryOp.Add, big),
                         (index_mul(big, 2), BinaryOp.Mul, ConstInt(2, DType.INDEX))):
        assert built == ConstInt(-(1 << 63), DType.INDEX)
        assert _interpret(BinaryExpr(op, big, b, DType.INDEX)) == -(1 << 63)
