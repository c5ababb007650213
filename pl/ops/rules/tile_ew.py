"""Type rules of the vector tile families: elementwise, scalar, unary, expand and reductions.

Each rule takes a `Deduction` and returns the result TileType with the memory space left unset (the
registry's resolver stamps it in `make_call`). Elementwise results take valid shape and
blayout/slayout/pad/compact from ARG0 only, even when the result shape is a broadcast (ops.md 15).
Each rule is marked `@type_rule(op names, parameters)`; ops sharing a rule differ only by the
parameters their mark binds. `pl.ops.registry` collects the marks into each op's record.
"""

from __future__ import annotations

from collections.abc import Callable

from pl.ir.enums import DType, TileLayout
from pl.ir.types import TileType, TileView, Type
from pl.ops.marks import type_rule
from pl.ops.rules.util import (
    Deduction,
    broadcast,
    dtype_in,
    ew_view,
    idx,
    int_dtype_check,
    promote,
    same_dim,
    shape_str,
    static,
    tile,
    valid_of,
)

Rule = Callable[[Deduction], Type]

_I16_U16 = (DType.INT16, DType.UINT16)
_INT_MSG = "The operator {op} requires int16 or uint16 tile dtype, but got {dt}"
_SIN_MSG = ("{op} is FP32-only, but got input with dtype {dt}. Cast the input to FP32 "
            "explicitly (pl.cast) before calling it")
_LOG_MSG = "{op} requires an FP16 or FP32 tile operand, but got {dt}"


@type_rule("tile.add", "tile.sub", "tile.mul", "tile.maximum", "tile.minimum", "tile.fmod", "tile.part_add",
           "tile.part_max", "tile.part_min", "tile.part_mul")
@type_rule("tile.and", "tile.or", int_only=True)
@type_rule("tile.shl", "tile.shr", int_only=True, keep_dtype=True)
@type_rule("tile.addc", "tile.subc", ntiles=3)
@type_rule("tile.rem", tmp=True)
@type_rule("tile.xor", tmp=True, int_only=True)
def binary(ctx: Deduction, *, ntiles: int = 2, tmp: bool = False, int_only: bool = False,
           keep_dtype: bool = False) -> Type:
    """add/sub/... : broadcast the first `ntiles` tiles, promote their dtypes, view of arg0."""
    ctx.nargs(ntiles + (1 if tmp else 0))
    ts = [ctx.tile(i) for i in range(ntiles)]
    if tmp:
        ctx.tile(ntiles)
    if int_only:
        for t in ts[:2]:
            int_dtype_check(ctx, t.dtype)
    shape = broadcast(ctx, *(t.shape for t in ts))
    dt = ts[0].dtype if keep_dtype else promote(*(t.dtype for t in ts))
    return tile(shape, dt, None, ew_view(ts[0]))


@type_rule("tile.div")
def div(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a, b = ctx.tile(0), ctx.tile(1)
    if a.dtype is not b.dtype:
        raise ctx.fail(f"The operator {ctx.name} requires src0, src1, and dst to have the same "
                       f"dtype, but got {a.dtype.short} and {b.dtype.short}")
    dtype_in(ctx, a.dtype, (DType.INT16, DType.INT32, DType.FP16, DType.FP32))
    if len(a.shape) != len(b.shape) or not all(map(same_dim, a.shape, b.shape)):
        raise ctx.fail(f"The operator {ctx.name} requires src0, src1, and dst to have the same "
                       f"physical shape, but got {shape_str(a.shape)} and {shape_str(b.shape)}")
    if not all(map(same_dim, valid_of(a), valid_of(b))):
        raise ctx.fail(f"The operator {ctx.name} requires src0 and src1 to have the same valid "
                       f"shape, but got {shape_str(valid_of(a))} and {shape_str(valid_of(b))}")
    if ctx.kw_bool("high_precision") and not a.dtype.is_float():
        raise ctx.fail(f"The operator {ctx.name} supports high_precision only for float dtypes")
    return tile(a.shape, a.dtype, None, ew_view(a))


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def _packed(ctx: Deduction, a: TileType, shape: tuple) -> Type:  # type: ignore[type-arg]
    """cmp/cmps: a packed UINT8 bit mask, last dim roundup(ceil(N/8), 32), valid ceil(v/8)."""
    last, vlast = static(shape[-1]), static(valid_of(a)[-1])
    new_shape = tuple(shape)
    valid = tuple(valid_of(a))
    if last is not None:
        new_shape = new_shape[:-1] + (idx(_ceil(_ceil(last, 8), 32) * 32),)
    if vlast is not None:
        valid = valid[:-1] + (idx(_ceil(vlast, 8)),)
    return tile(new_shape, DType.UINT8, None, ew_view(a, valid))


@type_rule("tile.cmp")
def cmp(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a, b = ctx.tile(0), ctx.tile(1)
    return _packed(ctx, a, broadcast(ctx, a.shape, b.shape))


@type_rule("tile.cmps")
def cmps(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a = ctx.tile(0)
    ctx.scalar(1)
    return _packed(ctx, a, a.shape)


@type_rule("tile.sel")
def sel(ctx: Deduction) -> Type:
    ctx.nargs(4)
    ctx.tile(0)
    lhs, rhs = ctx.tile(1), ctx.tile(2)
    ctx.tile(3)
    return tile(broadcast(ctx, lhs.shape, rhs.shape), promote(lhs.dtype, rhs.dtype), None,
                ew_view(lhs))


@type_rule("tile.prelu")
def prelu(ctx: Deduction) -> Type:
    ctx.nargs(3)
    a, slope = ctx.tile(0), ctx.tile(1)
    ctx.tile(2)
    dtype_in(ctx, a.dtype, (DType.FP16, DType.FP32))
    if slope.dtype is not a.dtype:
        raise ctx.fail(f"The operator {ctx.name} requires slope dtype to match input dtype, "
                       f"but got {slope.dtype.short} and {a.dtype.short}")
    return tile(a.shape, a.dtype, None, ew_view(a))


@type_rule("tile.adds", "tile.muls", "tile.divs", "tile.maximums", "tile.minimums", "tile.fmods",
           "tile.lrelu")
@type_rule("tile.subs", allowed=(DType.INT8, DType.INT16, DType.INT32, DType.FP16, DType.FP32, DType.BF16))
@type_rule("tile.ands", "tile.ors", "tile.shls", "tile.shrs", int_only=True)
@type_rule("tile.xors", int_only=True, tmp=True)
def scalar_op(ctx: Deduction, *, int_only: bool = False, tmp: bool = False,
              allowed: tuple[DType, ...] = (), promote_scalar: bool = False) -> Type:
    """adds/muls/... : arg0's shape and (unless `promote_scalar`) arg0's dtype."""
    ctx.nargs(3 if tmp else 2)
    a = ctx.tile(0)
    s = ctx.scalar(1)
    if tmp:
        ctx.tile(2)
    if int_only:
        int_dtype_check(ctx, a.dtype)
        int_dtype_check(ctx, s, "scalar")
    if allowed:
        dtype_in(ctx, a.dtype, allowed, "tile dtype")
    dt = promote(a.dtype, s) if promote_scalar else a.dtype
    return tile(a.shape, dt, None, ew_view(a))


@type_rule("tile.addsc", "tile.subsc", "tile.rems")
def scalar_tile(ctx: Deduction) -> Type:
    """addsc/subsc/rems: broadcast(arg0, arg2) and promote(arg0, scalar, arg2)."""
    ctx.nargs(3)
    a, s, c = ctx.tile(0), ctx.scalar(1), ctx.tile(2)
    return tile(broadcast(ctx, a.shape, c.shape), promote(a.dtype, s, c.dtype), None, ew_view(a))


@type_rule("tile.sels")
def sels(ctx: Deduction) -> Type:
    ctx.nargs(4)
    mask, src = ctx.tile(0), ctx.tile(1)
    ctx.tile(2)
    ctx.scalar(3)
    if mask.rank != 2 or src.rank != 2:
        raise ctx.fail(f"The operator {ctx.name} requires rank-2 mask and src tiles")
    return tile(src.shape, src.dtype, None, ew_view(src))


@type_rule("tile.abs", "tile.exp", "tile.neg", "tile.relu", "tile.sqrt", "tile.recip")
@type_rule("tile.rsqrt", max_args=2)
@type_rule("tile.sin", "tile.cos", allowed=(DType.FP32,), message=_SIN_MSG)
@type_rule("tile.log", allowed=(DType.FP16, DType.FP32), message=_LOG_MSG)
@type_rule("tile.not", allowed=_I16_U16, message=_INT_MSG)
def unary(ctx: Deduction, *, allowed: tuple[DType, ...] = (), max_args: int = 1,
          message: str = "") -> Type:
    ctx.nargs(1, max_args)
    a = ctx.tile(0)
    if allowed and a.dtype not in allowed:
        raise ctx.fail(message.format(op=ctx.name, dt=a.dtype.short))
    if ctx.has(1):
        t = ctx.tile(1)
        if t.dtype is not a.dtype or t.rank != a.rank:
            raise ctx.fail(f"The operator {ctx.name} requires tmp to match the input tile")
    if ctx.kw_bool("high_precision") and a.dtype not in (DType.FP16, DType.FP32):
        raise ctx.fail(f"The operator {ctx.name} supports high_precision only for FP16/FP32")
    return tile(a.shape, a.dtype, None, ew_view(a))


@type_rule("tile.cast")
def cast(ctx: Deduction) -> Type:
    ctx.nargs(1)
    a = ctx.tile(0)
    target = ctx.kw_dtype("target_type")
    if target is a.dtype:
        raise ctx.fail(f"{ctx.name}: target_type {target.short} equals input dtype; same-dtype "
                       "cast is not a valid operation")
    return tile(a.shape, target, None, ew_view(a))


@type_rule("tile.row_expand", "tile.row_expand_div", "tile.row_expand_expdif", "tile.row_expand_max",
           "tile.row_expand_min", "tile.row_expand_mul", "tile.row_expand_sub")
@type_rule("tile.row_expand_add", keep_dtype=True, max_args=3)
def row_expand(ctx: Deduction, *, keep_dtype: bool = False, max_args: int = 2) -> Type:
    ctx.nargs(2, max_args)
    a, r = ctx.tile(0), ctx.tile(1)
    if a.rank < 2 or r.rank < 2:
        raise ctx.fail(f"The operator {ctx.name} requires both arguments to have rank >= 2")
    if not keep_dtype:
        last = static(r.shape[-1])
        if last is not None and last != 1:
            raise ctx.fail(f"The operator {ctx.name} requires second argument's last dimension "
                           f"to be 1, but got {last}")
        ra, rr = static(a.shape[-2]), static(r.shape[-2])
        if ra is not None and rr is not None and ra != rr:
            raise ctx.fail(f"The operator {ctx.name} requires matching row counts, but got "
                           f"{ra} and {rr}")
        dt = promote(a.dtype, r.dtype)
    else:
        if a.dtype is not r.dtype:
            raise ctx.fail(f"The operator {ctx.name} requires equal dtypes, but got "
                           f"{a.dtype.short} and {r.dtype.short}")
        dt = a.dtype
    return tile(a.shape, dt, None, ew_view(a))


@type_rule("tile.col_expand", "tile.col_expand_add", "tile.col_expand_div", "tile.col_expand_expdif",
           "tile.col_expand_max", "tile.col_expand_min", "tile.col_expand_mul", "tile.col_expand_sub")
def col_expand(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a, c = ctx.tile(0), ctx.tile(1)
    return tile(a.shape, promote(a.dtype, c.dtype), None, ew_view(a))


@type_rule("tile.expands")
def expands(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a, s = ctx.tile(0), ctx.scalar(1)
    return tile(a.shape, promote(a.dtype, s), None, ew_view(a))


@type_rule("tile.row_sum", "tile.row_max", "tile.row_prod")
@type_rule("tile.row_min", allowed=(DType.INT16, DType.INT32, DType.FP16, DType.FP32))
@type_rule("tile.row_argmax", "tile.row_argmin", out=DType.INT32)
def row_reduce(ctx: Deduction, *, out: DType | None = None, allowed: tuple[DType, ...] = ()) -> Type:
    """row_*: last axis kept as 1; blayout col_major set explicitly (visible from rank 3)."""
    ctx.nargs(2)
    a, tmp = ctx.tile(0), ctx.tile(1)
    if a.rank < 2:
        raise ctx.fail(f"The operator {ctx.name} requires rank >= 2, but got {a.rank}")
    if tmp.dtype is not a.dtype:
        raise ctx.fail(f"The operator {ctx.name} requires tmp_tile dtype to match input dtype, "
                       f"but got tmp_tile dtype {tmp.dtype.short} and input dtype "
                       f"{a.dtype.short}")
    if allowed:
        dtype_in(ctx, a.dtype, allowed)
    valid = valid_of(a)
    view = TileView(valid_shape=tuple(valid[:-1]) + (idx(1),), blayout=TileLayout.col_major)
    return tile(tuple(a.shape[:-1]) + (idx(1),), out or a.dtype, None, view)


@type_rule("tile.col_sum", tmp="optional")
@type_rule("tile.col_max", "tile.col_min", "tile.col_prod")
@type_rule("tile.col_argmax", "tile.col_argmin", out=DType.INT32, tmp="required")
def col_reduce(ctx: Deduction, *, out: DType | None = None, tmp: str = "none") -> Type:
    """col_*: AXIS 0 replaced by 1 (even for rank 3); blayout row_major."""
    if tmp == "required":
        ctx.nargs(2)
    elif tmp == "optional":
        ctx.nargs(1, 2)
    else:
        ctx.nargs(1)
    a = ctx.tile(0)
    if a.rank < 2:
        raise ctx.fail(f"The operator {ctx.name} requires rank >= 2, but got {a.rank}")
    if ctx.has(1):
        t = ctx.tile(1)
        if t.dtype is not a.dtype:
            raise ctx.fail(f"The operator {ctx.name} requires tmp_tile dtype to match input "
                           f"dtype, but got {t.dtype.short} and {a.dtype.short}")
    valid = valid_of(a)
    view = TileView(valid_shape=(idx(1),) + tuple(valid[1:]), blayout=TileLayout.row_major)
    return tile((idx(1),) + tuple(a.shape[1:]), out or a.dtype, None, view)

