"""Type rules of tile views and layout transforms: slice, reshape, reinterpret_view, transpose,
transpose_view, assemble, set_validshape, fillpad*, concat.

Views keep their input's memory space (the inherit resolver, or the deducer itself for
transpose_view / fillpad / assemble). `tile.transpose` drops the source valid shape (fresh implicit
view), `tile.transpose_view` swaps it and flips blayout/slayout; `tile.slice` copies layout from the
STORED view of its input and narrows the valid shape by the window read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from pl.ir.enums import MemorySpace, TileLayout
from pl.ir.types import (
    TileType,
    TileView,
    Type,
    effective_tile_view,
    implicit_tile_view,
)
from pl.ops.marks import type_rule
from pl.ops.rules.tile_mem import positive_shape, window_valid
from pl.ops.rules.util import (
    Deduction,
    Shape,
    flat_view,
    flip,
    idx,
    numel,
    pad_kwarg,
    same_dim,
    shape_str,
    static,
    tile,
    valid_of,
    write_bounds,
)

Rule = Callable[[Deduction], Type]
R, C, N = TileLayout.row_major, TileLayout.col_major, TileLayout.none_box
_ACC = implicit_tile_view((), MemorySpace.Acc)


@type_rule("tile.slice")
def slice_(ctx: Deduction) -> Type:
    ctx.nargs(3, 5)
    a = ctx.tile(0)
    shape, offsets = ctx.tuple_arg(1), ctx.tuple_arg(2)
    requested = ctx.opt_tuple(3) or None  # builders pass () for an absent valid_shape
    drops: list[int] = []
    for d in ctx.opt_tuple(4) or ():
        k = static(d)
        if k is None or not 0 <= k < len(shape) or static(shape[k]) != 1:
            raise ctx.fail(f"The operator {ctx.name} can only drop dimensions of extent 1")
        drops.append(k)
    for d in shape:
        s = static(d)
        if s is not None and s <= 0:
            raise ctx.fail(f"The operator {ctx.name} requires positive shape dimensions, but got "
                           f"{shape_str(shape)}")
    for k, (o, e, d) in enumerate(zip(offsets, shape, a.shape, strict=False)):
        so, se, sd = static(o), static(e), static(d)
        if so is not None and sd is not None and (so < 0 or so >= sd or
                                                  (se is not None and so + se > sd)):
            raise ctx.fail(f"The operator {ctx.name} requires the window to lie inside the "
                           f"source: dimension {k} offset {so} extent {se} source {sd}")
    valid = window_valid(shape, offsets, valid_of(a), requested, src_shape=a.shape, clamp=False)
    keep = [k for k in range(len(shape)) if k not in drops]
    new_shape = tuple(shape[k] for k in keep)
    new_valid = tuple(valid[k] for k in keep)
    # Tiles are physically 2-D: a rank reduction below 2-D puts unit axes back in front (a
    # 1-D window of a 1-D tile, dropping nothing, stays 1-D, as in the reference).
    while drops and len(new_shape) < 2:
        new_shape, new_valid = (idx(1),) + new_shape, (idx(1),) + new_valid
    if a.view is not None:
        view = replace(a.view, valid_shape=new_valid)
    else:
        view = flat_view(new_shape, new_valid)
    if ctx.kwargs.get("pad_value") is not None:
        view = replace(view, pad=pad_kwarg(ctx))
    return tile(new_shape, a.dtype, None, view)


def _reshape_valid(ctx: Deduction, a: TileType, new: Shape) -> Shape:
    valid = valid_of(a)
    if all(map(same_dim, valid, a.shape)):
        return new
    lifted = _unit_axes_valid(a.shape, valid, new)
    if lifted is not None:
        return lifted
    sv, ss = [static(v) for v in valid], [static(d) for d in a.shape]
    # The valid region is a contiguous prefix iff only one dim is partial, every dim after it is
    # full and every dim before it has extent 1.
    first = next((k for k in range(len(sv)) if sv[k] is None or sv[k] != ss[k]), 0)
    prefix = (all(x == 1 for x in ss[:first])
              and all(sv[k] is not None and sv[k] == ss[k] for k in range(first + 1, len(ss))))
    count = numel(valid)
    tail = numel(new[1:])
    if not prefix or count is None or not tail or count % tail:
        raise ctx.fail(f"{ctx.name}: cannot reshape {shape_str(a.shape)} to {shape_str(new)} "
                       "because only part of it holds valid data and that part is not a "
                       "contiguous prefix of the new shape")
    return (idx(count // tail),) + tuple(new[1:])


def _unit_axes_valid(shape: Shape, valid: Shape, new: Shape) -> Shape | None:
    """The valid region of a reshape that only inserts or removes unit axes (a coordinate-only
    rank change, as a subscript write's lift is): each other axis keeps its valid extent. None
    for any other reshape."""
    kept = [(d, v) for d, v in zip(shape, valid, strict=True) if static(d) != 1]
    if [static(d) for d, _ in kept] != [static(d) for d in new if static(d) != 1] \
            or any(static(d) is None for d, _ in kept):
        return None
    rest = iter(kept)
    return tuple(idx(1) if static(d) == 1 else next(rest)[1] for d in new)


@type_rule("tile.reshape")
def reshape(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a = ctx.tile(0)
    new = ctx.tuple_arg(1)
    n0, n1 = numel(a.shape), numel(new)
    if n0 is not None and n1 is not None and n0 != n1:
        raise ctx.fail(f"{ctx.name}: cannot reshape tile of size {n0} into shape with size {n1}")
    src = effective_tile_view(a)
    base = flat_view(new) if src.slayout is N else TileView(blayout=src.blayout,
                                                             slayout=src.slayout)
    view = replace(base, valid_shape=_reshape_valid(ctx, a, new), fractal=src.fractal,
                   pad=src.pad, compact=src.compact)
    return tile(new, a.dtype, None, view)


@type_rule("tile.reinterpret_view")
def reinterpret_view(ctx: Deduction) -> Type:
    ctx.nargs(1, 2)
    a = ctx.tile(0)
    dt = ctx.kw_dtype("dtype")
    src = effective_tile_view(a)
    if src.slayout is not N or src.stride or src.start_offset is not None:
        raise ctx.fail(f"The operator {ctx.name} requires a flat (none_box) tile without "
                       "stride or start offset")
    axis = 0 if src.blayout is C else len(a.shape) - 1

    def scale(dims: Shape) -> Shape:
        d = static(dims[axis])
        if d is None:
            return dims
        bits = d * a.dtype.bits
        if bits % dt.bits:
            raise ctx.fail(f"The operator {ctx.name} cannot reinterpret {shape_str(a.shape)} "
                           f"{a.dtype.short} as {dt.short}")
        return tuple(dims[:axis]) + (idx(bits // dt.bits),) + tuple(dims[axis + 1:])

    shape = ctx.tuple_arg(1) if ctx.has(1) else scale(a.shape)
    valid = scale(src.valid_shape) if not ctx.has(1) else shape
    view = TileView(valid_shape=valid, blayout=src.blayout, slayout=N, fractal=src.fractal,
                    pad=src.pad, compact=src.compact)
    return tile(shape, dt, a.memory_space, view)


@type_rule("tile.transpose")
def transpose(ctx: Deduction) -> Type:
    ctx.nargs(3, 4)
    a = ctx.tile(0)
    i0, j0 = ctx.int_arg(1), ctx.int_arg(2)
    if i0 is None or j0 is None:
        raise ctx.fail(f"The operator {ctx.name} requires constant axes")
    r = a.rank
    i, j = (i0 + r if i0 < 0 else i0), (j0 + r if j0 < 0 else j0)
    if not (0 <= i < r and 0 <= j < r) or i == j:
        raise ctx.fail(f"The operator {ctx.name} requires two distinct axes in range, but got "
                       f"{i0} and {j0}")
    shape = list(a.shape)
    shape[i], shape[j] = shape[j], shape[i]
    return tile(tuple(shape), a.dtype, None, flat_view(tuple(shape)))


@type_rule("tile.transpose_view")
def transpose_view(ctx: Deduction) -> Type:
    ctx.nargs(1)
    a = ctx.tile(0)
    if a.rank < 2:
        raise ctx.fail(f"The operator {ctx.name} requires rank >= 2")
    src = effective_tile_view(a)

    def swap(s: Shape) -> Shape:
        return tuple(s[:-2]) + (s[-1], s[-2])

    view = replace(src, valid_shape=swap(src.valid_shape), blayout=flip(src.blayout),
                   slayout=flip(src.slayout))
    return tile(swap(a.shape), a.dtype, a.memory_space, view)


@type_rule("tile.assemble")
def assemble(ctx: Deduction) -> Type:
    ctx.nargs(3)
    tgt, src = ctx.tile(0), ctx.tile(1)
    off = ctx.tuple_arg(2)
    view = effective_tile_view(tgt)
    # pto.tinsert copies the whole source subview, so its physical shape must fit. A write of
    # another rank than its target reinterprets the target's axes: not checked, and the result
    # is taken as fully valid, as in the reference.
    if not write_bounds(ctx, off, src.shape, tgt.shape, "target"):
        return tile(tgt.shape, tgt.dtype, tgt.memory_space, replace(view, valid_shape=tgt.shape))
    sv = valid_of(src)
    valid = list(view.valid_shape)
    for k, o in enumerate(off):
        cur, so, vs = static(valid[k]), static(o), static(sv[k])
        full = static(tgt.shape[k])
        if cur is not None and so is not None and vs is not None and full is not None:
            valid[k] = idx(min(full, max(cur, so + vs)))
    return tile(tgt.shape, tgt.dtype, tgt.memory_space, replace(view, valid_shape=tuple(valid)))


@type_rule("tile.set_validshape")
def set_validshape(ctx: Deduction) -> Type:
    ctx.nargs(3)
    a = ctx.tile(0)
    rows, cols = ctx.dims(1, 2)
    if len(a.shape) < 2:
        raise ctx.fail(f"The operator {ctx.name} requires a tile of rank 2 or more, but got rank "
                       f"{len(a.shape)}", argument=0)
    for v, d in ((rows, a.shape[-2]), (cols, a.shape[-1])):
        sv, sd = static(v), static(d)
        if sv is not None and sd is not None and sv > sd:
            raise ctx.fail(f"The operator {ctx.name} requires valid dims <= physical dims, but "
                           f"got {sv} > {sd}")
    norm = tuple(idx(static(v)) if static(v) is not None else v  # type: ignore[arg-type]
                 for v in (rows, cols))
    view = replace(effective_tile_view(a), valid_shape=tuple(a.shape[:-2]) + norm)
    return tile(a.shape, a.dtype, None, view)


@type_rule("tile.fillpad", "tile.fillpad_inplace")
@type_rule("tile.fillpad_expand", expand=True)
def fillpad(ctx: Deduction, *, expand: bool = False) -> Type:
    ctx.nargs(2 if expand else 1)
    a = ctx.tile(0)
    pad = pad_kwarg(ctx)
    shape = a.shape
    if expand:
        shape = positive_shape(ctx, 1)
        if len(shape) != a.rank:
            raise ctx.fail(f"The operator {ctx.name} requires the new shape to keep rank {a.rank}")
        for d, s in zip(shape, a.shape, strict=False):
            x, y = static(d), static(s)
            if x is not None and y is not None and x < y:
                raise ctx.fail(f"The operator {ctx.name} requires every new dim >= the source "
                               f"dim, but got {shape_str(shape)} for {shape_str(a.shape)}")
    view = replace(effective_tile_view(a), valid_shape=(), pad=pad)
    return tile(shape, a.dtype, a.memory_space, view)


@type_rule("tile.concat")
def concat(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a, b = ctx.tile(0), ctx.tile(1)
    if a.dtype is not b.dtype:
        raise ctx.fail(f"The operator {ctx.name} requires equal dtypes, but got {a.dtype.short} "
                       f"and {b.dtype.short}")
    if a.rank != 2 or b.rank != 2 or not same_dim(a.shape[0], b.shape[0]):
        raise ctx.fail(f"The operator {ctx.name} requires 2-D tiles with equal row counts, but "
                       f"got {shape_str(a.shape)} and {shape_str(b.shape)}")
    c0, c1 = static(a.shape[1]), static(b.shape[1])
    cols = idx(c0 + c1) if c0 is not None and c1 is not None else a.shape[1]
    shape = (a.shape[0], cols)
    return tile(shape, a.dtype, None, flat_view(shape))
