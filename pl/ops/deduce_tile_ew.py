"""Type rules of the vector tile families: elementwise, scalar, unary, expand and reductions.

Each rule takes a `Deduction` and returns the result TileType with the memory space left unset (the
registry's resolver stamps it in `make_call`). Elementwise results take valid shape and
blayout/slayout/pad/compact from ARG0 only, even when the result shape is a broadcast (ops.md 15).
`RULES` maps op name -> rule; ops sharing a rule differ only by the parameters bound here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pl.ir.enums import DType, TileLayout
from pl.ir.types import TileType, TileView, Type
from pl.ops.deduce_util import (
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


def cmp(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a, b = ctx.tile(0), ctx.tile(1)
    return _packed(ctx, a, broadcast(ctx, a.shape, b.shape))


def cmps(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a = ctx.tile(0)
    ctx.scalar(1)
    return _packed(ctx, a, a.shape)


def sel(ctx: Deduction) -> Type:
    ctx.nargs(4)
    ctx.tile(0)
    lhs, rhs = ctx.tile(1), ctx.tile(2)
    ctx.tile(3)
    return tile(broadcast(ctx, lhs.shape, rhs.shape), promote(lhs.dtype, rhs.dtype), None,
                ew_view(lhs))


def prelu(ctx: Deduction) -> Type:
    ctx.nargs(3)
    a, slope = ctx.tile(0), ctx.tile(1)
    ctx.tile(2)
    dtype_in(ctx, a.dtype, (DType.FP16, DType.FP32))
    if slope.dtype is not a.dtype:
        raise ctx.fail(f"The operator {ctx.name} requires slope dtype to match input dtype, "
                       f"but got {slope.dtype.short} and {a.dtype.short}")
    return tile(a.shape, a.dtype, None, ew_view(a))


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


def scalar_tile(ctx: Deduction) -> Type:
    """addsc/subsc/rems: broadcast(arg0, arg2) and promote(arg0, scalar, arg2)."""
    ctx.nargs(3)
    a, s, c = ctx.tile(0), ctx.scalar(1), ctx.tile(2)
    return tile(broadcast(ctx, a.shape, c.shape), promote(a.dtype, s, c.dtype), None, ew_view(a))


def sels(ctx: Deduction) -> Type:
    ctx.nargs(4)
    mask, src = ctx.tile(0), ctx.tile(1)
    ctx.tile(2)
    ctx.scalar(3)
    if mask.rank != 2 or src.rank != 2:
        raise ctx.fail(f"The operator {ctx.name} requires rank-2 mask and src tiles")
    return tile(src.shape, src.dtype, None, ew_view(src))


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


def cast(ctx: Deduction) -> Type:
    ctx.nargs(1)
    a = ctx.tile(0)
    target = ctx.kw_dtype("target_type")
    if target is a.dtype:
        raise ctx.fail(f"{ctx.name}: target_type {target.short} equals input dtype; same-dtype "
                       "cast is not a valid operation")
    return tile(a.shape, target, None, ew_view(a))


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


def col_expand(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a, c = ctx.tile(0), ctx.tile(1)
    return tile(a.shape, promote(a.dtype, c.dtype), None, ew_view(a))


def expands(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a, s = ctx.tile(0), ctx.scalar(1)
    return tile(a.shape, promote(a.dtype, s), None, ew_view(a))


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


_INT_MSG = "The operator {op} requires int16 or uint16 tile dtype, but got {dt}"
_SIN_MSG = ("{op} is FP32-only, but got input with dtype {dt}. Cast the input to FP32 "
            "explicitly (pl.cast) before calling it")
_LOG_MSG = "{op} requires an FP16 or FP32 tile operand, but got {dt}"
_I32 = DType.INT32


def _rules() -> dict[str, Rule]:
    r: dict[str, Rule] = {}
    for n in ("add", "sub", "mul", "maximum", "minimum", "fmod", "part_add", "part_max",
              "part_min", "part_mul"):
        r[n] = binary
    r["and"] = r["or"] = partial(binary, int_only=True)
    r["shl"] = r["shr"] = partial(binary, int_only=True, keep_dtype=True)
    r["addc"] = r["subc"] = partial(binary, ntiles=3)
    r["rem"] = partial(binary, tmp=True)
    r["xor"] = partial(binary, tmp=True, int_only=True)
    r["div"] = div
    r["cmp"] = cmp
    r["cmps"] = cmps
    r["sel"] = sel
    r["prelu"] = prelu
    for n in ("adds", "muls", "divs", "maximums", "minimums", "fmods", "lrelu"):
        r[n] = scalar_op
    r["subs"] = partial(scalar_op, allowed=(DType.INT8, DType.INT16, DType.INT32, DType.FP16,
                                            DType.FP32, DType.BF16))
    for n in ("ands", "ors", "shls", "shrs"):
        r[n] = partial(scalar_op, int_only=True)
    r["xors"] = partial(scalar_op, int_only=True, tmp=True)
    r["addsc"] = r["subsc"] = r["rems"] = scalar_tile
    r["sels"] = sels
    r["expands"] = expands
    for n in ("abs", "exp", "neg", "relu", "sqrt", "recip"):
        r[n] = unary
    r["rsqrt"] = partial(unary, max_args=2)
    r["sin"] = r["cos"] = partial(unary, allowed=(DType.FP32,), message=_SIN_MSG)
    r["log"] = partial(unary, allowed=(DType.FP16, DType.FP32), message=_LOG_MSG)
    r["not"] = partial(unary, allowed=_I16_U16, message=_INT_MSG)
    r["cast"] = cast
    for n in ("row_expand", "row_expand_div", "row_expand_expdif", "row_expand_max",
              "row_expand_min", "row_expand_mul", "row_expand_sub"):
        r[n] = row_expand
    r["row_expand_add"] = partial(row_expand, keep_dtype=True, max_args=3)
    for n in ("col_expand", "col_expand_add", "col_expand_div", "col_expand_expdif",
              "col_expand_max", "col_expand_min", "col_expand_mul", "col_expand_sub"):
        r[n] = col_expand
    r["row_sum"] = r["row_max"] = r["row_prod"] = row_reduce
    r["row_min"] = partial(row_reduce, allowed=(DType.INT16, DType.INT32, DType.FP16,
                                                DType.FP32))
    r["row_argmax"] = r["row_argmin"] = partial(row_reduce, out=_I32)
    r["col_sum"] = partial(col_reduce, tmp="optional")
    r["col_max"] = r["col_min"] = r["col_prod"] = col_reduce
    r["col_argmax"] = r["col_argmin"] = partial(col_reduce, out=_I32, tmp="required")
    return {f"tile.{k}": v for k, v in r.items()}


RULES: dict[str, Rule] = _rules()
