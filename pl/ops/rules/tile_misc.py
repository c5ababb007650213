"""Type rules of the tile matmul family, gather/scatter/sort, cross-core split and misc ops.

The matmul family yields FP32 (INT32 for integer inputs) in Acc with the Acc implicit layout and
requires lhs and rhs of one dtype; gemv pads M to 16 with valid rows 1 (space left to the
resolver). Ops whose reference deducer returns nothing (tpush/tpop) give UnknownType; the DSL
builds tpop's result type itself (alloc's Ptr rule is with the memory ops, `tile_mem`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from pl.ir.enums import CompactMode, DType, MemorySpace, TileLayout
from pl.ir.types import (
    ScalarType,
    TileType,
    TileView,
    TupleType,
    Type,
    UnknownType,
    effective_tile_view,
    implicit_tile_view,
)
from pl.ops.marks import type_rule
from pl.ops.rules.util import (
    Deduction,
    Shape,
    broadcast,
    flat_view,
    idx,
    same_dim,
    shape_str,
    static,
    threshold_dtype,
    tile,
    valid_of,
)

Rule = Callable[[Deduction], Type]
R, C, N = TileLayout.row_major, TileLayout.col_major, TileLayout.none_box
_ACC = implicit_tile_view((), MemorySpace.Acc)


def _mm_dtype(ctx: Deduction, lhs: TileType, rhs: TileType) -> DType:
    if lhs.dtype is not rhs.dtype:
        raise ctx.fail(f"The operator {ctx.name} requires lhs and rhs to have the same dtype, "
                       f"but got {lhs.dtype.short} and {rhs.dtype.short}")
    return DType.FP32 if lhs.dtype.is_float() else DType.INT32


def _check_k(ctx: Deduction, lhs: TileType, rhs: TileType) -> None:
    if lhs.rank < 2 or rhs.rank < 2:
        raise ctx.fail(f"The operator {ctx.name} requires operands of rank >= 2")
    k1, k2 = static(lhs.shape[-1]), static(rhs.shape[-2])
    if k1 is not None and k2 is not None and k1 != k2:
        raise ctx.fail(f"The operator {ctx.name} requires matching physical inner dimensions "
                       f"(physical K), but got lhs K={k1} and rhs K={k2}")


def _acc_view(valid: Shape, compact: CompactMode = CompactMode.null) -> TileView:
    return replace(_ACC, valid_shape=valid, compact=compact)


def _check_2d(ctx: Deduction, **tiles: TileType) -> None:
    for role, t in tiles.items():
        if t.rank != 2:
            raise ctx.fail(f"The operator {ctx.name} requires {role} to be 2D, but got {t.rank} "
                           "dimensions")


@type_rule("tile.matmul")
@type_rule("tile.matmul_acc", first=1, nargs=(3, 4), acc=True)
@type_rule("tile.matmul_bias", nargs=(3, 3), bias=True)
@type_rule("tile.gemv", gemv=True)
@type_rule("tile.gemv_acc", first=1, nargs=(3, 3), gemv=True)
@type_rule("tile.gemv_bias", nargs=(3, 3), gemv=True, bias=True)
@type_rule("tile.batch_matmul", batch=True)
@type_rule("tile.batch_matmul_acc", first=1, nargs=(3, 3), acc=True, batch=True)
def matmul(ctx: Deduction, *, first: int = 0, nargs: tuple[int, int] = (2, 2), acc: bool = False,
           gemv: bool = False, bias: bool = False, batch: bool = False) -> Type:
    ctx.nargs(*nargs)
    if acc:
        ctx.init_cond(3)
    lhs, rhs = ctx.tile(first), ctx.tile(first + 1)
    if not batch:
        _check_2d(ctx, lhs=lhs, rhs=rhs)
    _check_k(ctx, lhs, rhs)
    dt = _mm_dtype(ctx, lhs, rhs)
    n = rhs.shape[-1]
    if bias:
        b = ctx.tile(2)
        _check_2d(ctx, bias=b)
        bn, rn = static(b.shape[1]), static(n)
        if static(b.shape[0]) != 1 or (bn is not None and rn is not None and bn != rn):
            raise ctx.fail(f"The operator {ctx.name} requires bias to have shape [1, N], but got "
                           f"{shape_str(b.shape)}")
        if b.dtype is not dt:
            raise ctx.fail(f"The operator {ctx.name} requires bias dtype {dt.short}, but got "
                           f"{b.dtype.short}")
    if gemv:
        if static(lhs.shape[-2]) not in (1, None):
            raise ctx.fail(f"The operator {ctx.name} requires lhs with one row, but got "
                           f"{shape_str(lhs.shape)}")
        return tile((idx(16), n), dt, None, _acc_view((idx(1), n)))
    if acc:
        a = ctx.tile(0)
        if not batch:
            _check_2d(ctx, acc=a)
            for what, x, y in (("M", a.shape[0], lhs.shape[0]), ("N", a.shape[1], n)):
                sx, sy = static(x), static(y)
                if sx is not None and sy is not None and sx != sy:
                    raise ctx.fail(f"The operator {ctx.name} requires matching {what} "
                                   f"dimensions, but got acc {what}={sx} and {sy}")
        if a.dtype is not dt:
            raise ctx.fail(f"The operator {ctx.name} requires accumulator dtype {dt.short}, but "
                           f"got {a.dtype.short}")
        av = effective_tile_view(a)
        return tile(a.shape, dt, MemorySpace.Acc, _acc_view(av.valid_shape, av.compact))
    bdims = broadcast(ctx, lhs.shape[:-2], rhs.shape[:-2]) if batch else ()
    m = lhs.shape[-2]
    lv, rv = valid_of(lhs), valid_of(rhs)
    valid = tuple(bdims) + (lv[-2], rv[-1])
    narrow = not same_dim(lv[-2], m)
    shape = tuple(bdims) + (m, n)
    return tile(shape, dt, MemorySpace.Acc,
                _acc_view(valid, CompactMode.normal if narrow else CompactMode.null))


@type_rule("tile.matmul_mx")
@type_rule("tile.matmul_mx_acc", kind="acc")
@type_rule("tile.matmul_mx_bias", kind="bias")
def matmul_mx(ctx: Deduction, *, kind: str = "plain") -> Type:
    ctx.nargs(5 if kind != "plain" else 4)
    lo = 1 if kind == "acc" else 0
    lhs, rhs = ctx.tile(lo), ctx.tile(lo + 2)
    if kind == "acc":
        a = ctx.tile(0)
        return tile(a.shape, DType.FP32, MemorySpace.Acc, _acc_view(valid_of(a)))
    shape = (lhs.shape[-2], rhs.shape[-1])
    return tile(shape, DType.FP32, MemorySpace.Acc, _acc_view(shape))


@type_rule("tile.tget_scale_addr", "tile.scatter", "tile.scatter_mask", "tile.scatter_update")
def same_as(ctx: Deduction, *, i: int = 0, keep_space: bool = True) -> Type:
    """The type of tile argument `i` (with its memory space dropped unless `keep_space`)."""
    t = ctx.tile(i)
    return t if keep_space else t.with_space(None)


@type_rule("tile.gather")
def gather(ctx: Deduction) -> Type:
    ctx.nargs(3)
    src, ix = ctx.tile(0), ctx.tile(1)
    ctx.tile(2)
    return tile(ix.shape, src.dtype, None, flat_view(ix.shape))


@type_rule("tile.gather_compare")
def gather_compare(ctx: Deduction) -> Type:
    ctx.nargs(3)
    src = ctx.tile(0)
    threshold_dtype(ctx, 1, src.dtype)
    cols = ctx.kw_int("out_cols")
    if cols is None or cols <= 0:
        raise ctx.fail(f"The operator {ctx.name} requires a positive out_cols")
    cdt = ctx.kw_dtype("count_dtype", DType.INT32)
    rows = src.shape[0]
    dst = tile((rows, idx(cols)), DType.INT32, None, replace(flat_view((rows, idx(cols)))))
    cdst = tile((idx(1), rows), cdt, None, TileView())
    return TupleType((dst, cdst))


@type_rule("tile.gather_mask")
def gather_mask(ctx: Deduction) -> Type:
    ctx.nargs(1)
    src = ctx.tile(0)
    pattern = ctx.kw_int("mask_pattern")
    div = 2 if pattern in (1, 2) else 4 if pattern in (3, 4, 5, 6) else 1
    cols = static(src.shape[-1])
    shape = (src.shape[0], idx(cols // div) if cols is not None else src.shape[-1])
    return tile(shape, ctx.kw_dtype("output_dtype", src.dtype), None, flat_view(shape))


@type_rule("tile.gatherb")
def gatherb(ctx: Deduction) -> Type:
    ctx.nargs(2)
    src, off = ctx.tile(0), ctx.tile(1)
    dt = ctx.kw_dtype("output_dtype", src.dtype)
    per = 32 // dt.byte_size()
    cols = static(off.shape[-1])
    shape = (off.shape[0], idx(cols * per) if cols is not None else off.shape[-1])
    return tile(shape, dt, None, TileView(blayout=R))


@type_rule("tile.sort32")
def sort32(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a = ctx.tile(0)
    ctx.tile(1)
    last = static(a.shape[-1])
    shape = tuple(a.shape[:-1]) + ((idx(last * 2),) if last is not None else (a.shape[-1],))
    return tile(shape, a.dtype, None, flat_view(shape))


@type_rule("tile.mrgsort_format2")
def mrgsort2(ctx: Deduction) -> Type:
    ctx.nargs(3, 5)
    src = ctx.tile(0)
    tmp = ctx.tile(len(ctx.args) - 1)
    return tile(tmp.shape, src.dtype, None, flat_view(tmp.shape))


@type_rule("tile.mrgsort_format1")
def mrgsort1(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a = ctx.tile(0)
    ctx.scalar(1)
    return tile(a.shape, a.dtype, None, flat_view(a.shape))


@type_rule("tile.aiv_shard", gather_=False)
@type_rule("tile.aic_gather", gather_=True)
def split_rule(ctx: Deduction, *, gather_: bool) -> Type:
    ctx.nargs(1)
    a = ctx.tile(0)
    split = ctx.kw_int("split")
    if split is None:
        raise ctx.fail(f"The operator {ctx.name} requires the split attribute")
    shape, valid = list(a.shape), list(valid_of(a))
    if split in (1, 2):
        if a.rank != 2:
            raise ctx.fail(f"The operator {ctx.name} requires a 2-D tile when split != 0")
        ax = split - 1
        for seq in (shape, valid):
            d = static(seq[ax])
            if d is not None:
                seq[ax] = idx(d * 2 if gather_ else (d + 1) // 2)
    return tile(tuple(shape), a.dtype, None, flat_view(tuple(shape), tuple(valid)))


@type_rule("tile.get_block_idx", "tile.get_block_num", "tile.get_subblock_idx")
def scalar_index(ctx: Deduction) -> Type:
    ctx.nargs(0)
    return ScalarType(DType.INDEX)


@type_rule("tile.tpush_to_aic", "tile.tpush_to_aiv", "tile.tpop_from_aic", "tile.tpop_from_aiv")
def unknown(ctx: Deduction) -> Type:
    return UnknownType()
