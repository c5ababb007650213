"""Shared machinery of the tensor/tile pre-passes: op construction and naming.

Guarantees: nothing here mutates its input. `rededuce_call` is the call rebuild these passes give
the one rewriter (`pl.ir.rewriter.Rewriter`): calls to registered ops whose arguments changed
are rebuilt through `make_call` (so their result type is re-deduced) with their kwargs and attrs
kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pl.ir.enums import DType
from pl.ir.expr import (
    BinaryExpr,
    Call,
    ConstFloat,
    ConstInt,
    Expr,
    GlobalVar,
    MakeTuple,
    Var,
)
from pl.ir.fold import int_binary
from pl.ir.operators import BinaryOp
from pl.ir.span import UNKNOWN_SPAN, Span
from pl.ir.stmt import (
    AssignStmt,
)
from pl.ir.types import TensorType, TileType, Type, effective_tile_view, static_shape
from pl.ops.registry import get_op


def mk(name: str, args: Sequence[Expr], kwargs: Sequence[tuple[str, Any]] = (),
       attrs: Sequence[tuple[str, Any]] = (), span: Span = UNKNOWN_SPAN) -> Call:
    """Build a registered op call with its deduced result type (pl.ops.deduce.make_call)."""
    from pl.ops.deduce import make_call  # imported late: built concurrently, keeps import light

    return make_call(name, list(args), list(kwargs), tuple(attrs), span)


def with_attrs(call: Call, attrs: Sequence[tuple[str, Any]]) -> Call:
    if not attrs:
        return call
    return Call(call.op, call.args, call.kwargs, tuple(attrs), call.result_type, span=call.span)


def index(value: int, span: Span = UNKNOWN_SPAN) -> ConstInt:
    return ConstInt(value, DType.INDEX, span=span)


def index_tuple(values: Sequence[int], span: Span = UNKNOWN_SPAN) -> MakeTuple:
    return MakeTuple(tuple(index(v, span) for v in values), span=span)


def index_add(a: Expr, b: Expr) -> Expr:
    """`a + b` as an index expression, folded (in INDEX arithmetic, pl/ir/fold.py) when both are
    constants or one is 0."""
    if isinstance(a, ConstInt) and isinstance(b, ConstInt):
        return index(int_binary(BinaryOp.Add, a.value, b.value, DType.INDEX))
    if isinstance(a, ConstInt) and a.value == 0:
        return b
    if isinstance(b, ConstInt) and b.value == 0:
        return a
    return BinaryExpr(BinaryOp.Add, a, b, DType.INDEX)


def index_mul(a: Expr, factor: int) -> Expr:
    """`a * factor` as an index expression, folded (in INDEX arithmetic) when `a` is a constant
    or factor is 1."""
    if isinstance(a, ConstInt):
        return index(int_binary(BinaryOp.Mul, a.value, factor, DType.INDEX))
    if factor == 1:
        return a
    return BinaryExpr(BinaryOp.Mul, a, index(factor), DType.INDEX)


def full_value(value: float, dtype: DType, span: Span) -> Expr:
    """A tile.full value as the frontend reads the literal `pl.tile.full(..., value=1)` (an INDEX
    int, an FP32 float): the dtype kwarg gives the tile its dtype, and the text reads back equal.
    An integer dtype truncates the value, as filling an array of that dtype does."""
    return ConstFloat(float(value), DType.FP32, span=span) if dtype.is_float() \
        else ConstInt(int(value), DType.INDEX, span=span)


def zeros(rank: int, span: Span = UNKNOWN_SPAN) -> MakeTuple:
    return index_tuple([0] * rank, span)


def shape_tuple(shape: Sequence[Expr], span: Span = UNKNOWN_SPAN) -> MakeTuple:
    return MakeTuple(tuple(shape), span=span)


def dims_text(dims: Sequence[Expr]) -> str:
    """Dims for a message: `[16, 16]`, or how many there are when one is not static."""
    static = static_shape(tuple(dims))
    return str(list(static)) if static is not None else f"of {len(dims)} dims"


def same_extents(a: Sequence[Expr], b: Sequence[Expr]) -> bool:
    """Whether two shapes have one rank and equal dims wherever both are static."""
    return len(a) == len(b) and all(
        x.static_int() is None or y.static_int() is None or x.static_int() == y.static_int()
        for x, y in zip(a, b, strict=True))


def base_name(name: str) -> str:
    """The user's name before the first `__` (SSA suffixes dropped)."""
    return name.split("__", 1)[0] or name


def tile_name(name: str) -> str:
    return f"{base_name(name)}__tile"


def tensor_valid_shape(t: TensorType) -> tuple[Expr, ...]:
    """The region of a tensor its type declares meaningful: the view's valid shape, else all."""
    return t.view.valid_shape if t.view is not None and t.view.valid_shape else tuple(t.shape)


def widen_to_tensor_valid(var: Var, tensor: Type, span: Span) -> AssignStmt | None:
    """A `tile.set_validshape` giving the converted tile `var` the valid region its tensor type
    declares, when the tile op narrowed it (a matmul of a set_validshape operand, an elementwise op
    of one): the tensor program reads (and stores) the whole declared region, so must the tile
    program. None when they already agree, or when either is not a static 2D region."""
    t = var.type
    if not isinstance(t, TileType) or not isinstance(tensor, TensorType) or t.rank != 2:
        return None
    want = static_shape(tensor_valid_shape(tensor))
    have = static_shape(effective_tile_view(t).valid_shape)
    if want is None or have is None or want == have or static_shape(t.shape) != want:
        return None
    call = mk("tile.set_validshape", [var, index(want[0], span), index(want[1], span)], (), (), span)
    return AssignStmt(Var(f"{base_name(var.name)}__valid", call.type, span=span), call, span=span)


def is_op_call(e: Expr | None, *names: str) -> bool:
    return isinstance(e, Call) and not isinstance(e.op, GlobalVar) and e.op.name in names


def op_name(e: Expr) -> str:
    """The name of the registered op `e` calls; "" for any other expression (a call of a program
    function included). A pass reads it once and compares it with the ops it rewrites."""
    return e.op.name if isinstance(e, Call) and not isinstance(e.op, GlobalVar) else ""


def rededuce_call(e: Call, args: tuple[Expr, ...], kwargs: tuple[tuple[str, Any], ...]) -> Call:
    """The call rebuild of the lowering passes (`pl.ir.rewriter.Rewriter`'s `rebuild`): a call of a
    registered op whose arguments changed is rebuilt through `make_call`, its result type
    re-deduced; attrs are compiler-internal and kept; a function call keeps its result type."""
    if isinstance(e.op, GlobalVar) or get_op(e.op.name) is None:
        return Call(e.op, args, kwargs, e.attrs, e.result_type, span=e.span)
    return with_attrs(mk(e.op.name, args, kwargs, (), e.span), e.attrs)



