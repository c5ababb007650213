"""Type rules of the tile data-movement, creation and scalar-access ops.

load/store/move/extract/create/full/ci/tri/random/read/write, the gather-from-memory ops, and
the allocations of IR printed after memory allocation (`tile.alloc` / `tensor.alloc`: a Ptr).
Layout facts (ops.md 5): a Mat load is NZ (col/row), ZN (row/col) from a DN source, row/none_box
for a single-row 2-D tile; a move to a boxed space takes that space's implicit layout while a move
to a flat space keeps the source's blayout/slayout; Right forces blayout row_major; extract to Left
is row/row and to Right row/col. Results the reference leaves unplaced keep `memory_space=None`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from pl.ir.enums import CompactMode, DType, MemorySpace, TensorLayout, TileLayout
from pl.ir.expr import ConstInt, Expr, MakeTuple, stored_space
from pl.ir.target import SPACES
from pl.ir.types import (
    PtrType,
    ScalarType,
    TileType,
    TileView,
    Type,
    effective_tile_view,
    implicit_tile_view,
)
from pl.ops.marks import type_rule
from pl.ops.rules.util import (
    Deduction,
    Shape,
    dtype_in,
    flat_view,
    idx,
    numel,
    shape_str,
    static,
    tile,
    valid_of,
    write_bounds,
)

Rule = Callable[[Deduction], Type]
R, C, N = TileLayout.row_major, TileLayout.col_major, TileLayout.none_box


def space_kwarg(ctx: Deduction, default: MemorySpace | None = None) -> MemorySpace | None:
    v = ctx.kwargs.get("target_memory", default)
    if v is None:
        return default
    if not isinstance(v, MemorySpace):
        raise ctx.fail(f"The operator {ctx.name} requires target_memory to be a MemorySpace, "
                       f"but got {v!r}")
    return v


def positive_shape(ctx: Deduction, i: int) -> Shape:
    shape = ctx.tuple_arg(i)
    if not shape:
        raise ctx.fail(f"The operator {ctx.name} requires a non-empty shape")
    for d in shape:
        s = static(d)
        if s is not None and s <= 0:
            raise ctx.fail(f"The operator {ctx.name} requires positive shape dimensions, but got "
                           f"{shape_str(shape)}")
    return shape


def window_valid(shape: Shape, offsets: Shape, src_valid: Shape,
                 requested: Shape | None = None, *, src_shape: Shape | None = None,
                 clamp: bool = True, ctx: Deduction | None = None) -> Shape:
    """InferWindowReadValidShape: per dim, available = clamp(source valid - offset, 0, window)
    (just the window when the source is fully valid and the read does not clamp); the result is
    `available` when it is provably narrower than the request, else the request. With `ctx` and
    `clamp=False` a read reaching past the source end is an error."""
    out: list[Expr] = []
    for k, w in enumerate(shape):
        o = static(offsets[k]) if k < len(offsets) else 0
        sv = static(src_valid[k]) if k < len(src_valid) else None
        sp = static(src_shape[k]) if src_shape is not None and k < len(src_shape) else sv
        req = requested[k] if requested else None
        sw, sr = static(w), (static(req) if req is not None else None)
        if ctx is not None:
            if sr is not None and sw is not None and sr > sw:
                raise ctx.fail(f"{ctx.name} valid_shape {k} is {sr}, which exceeds the window "
                               f"extent {sw}; a valid region cannot be larger than the shape that "
                               "holds it")
            reach = sr if req is not None else sw
            if not clamp and o is not None and reach is not None and sp is not None \
                    and o + reach > sp:
                raise ctx.fail(f"{ctx.name} reads past the end of dimension {k}: offset {o} + "
                               f"extent {reach} exceeds the source extent {sp}. Pass clamp=True "
                               "to narrow the read to the source edge instead")
        full = sv is not None and sv == sp
        avail: int | None
        if full and not clamp:
            avail = sw
        elif o is not None and sv is not None and sw is not None:
            avail = max(0, min(sv - o, sw))
        else:
            avail = None
        if req is None:
            out.append(idx(avail) if avail is not None else w)
        elif avail is not None and avail != sw and sr is not None and avail <= sr:
            out.append(idx(avail))
        else:
            out.append(req)
    return tuple(out)


def _bounds(ctx: Deduction, verb: str, offsets: Shape, extents: Shape, dims: Shape, what: str) -> None:
    for k, (o, e, d) in enumerate(zip(offsets, extents, dims, strict=False)):
        so, se, sd = static(o), static(e), static(d)
        if so is not None and se is not None and sd is not None and so + se > sd:
            raise ctx.fail(f"{ctx.name} {verb} past the end of dimension {k}: offset {so} + "
                           f"extent {se} exceeds the {what} extent {sd}")


@type_rule("tile.load")
def load(ctx: Deduction) -> Type:
    ctx.nargs(4)
    src = ctx.tensor(0)
    offsets, shape, valid = ctx.tuple_arg(1), ctx.tuple_arg(2), ctx.tuple_arg(3)
    if len(offsets) != len(shape) or len(valid) != len(shape):
        raise ctx.fail(f"The operator {ctx.name} requires offsets, shapes and valid_shape to have "
                       f"the same number of dimensions, but got {len(offsets)}, {len(shape)} and "
                       f"{len(valid)}")
    if not shape:
        raise ctx.fail(f"The operator {ctx.name} requires at least one dimension, but got empty "
                       "shapes tuple")
    space = space_kwarg(ctx)
    layout = src.view.layout if src.view is not None else TensorLayout.ND
    if len(shape) == src.rank:
        src_valid = src.view.valid_shape if src.view is not None and src.view.valid_shape \
            else src.shape
        vshape = window_valid(shape, offsets, src_valid, valid, src_shape=src.shape,
                              clamp=ctx.kw_bool("clamp"), ctx=ctx)
    else:  # a lower-rank window reinterprets the source: keep the request as given
        vshape = valid
    if layout in (TensorLayout.MX_A_ZZ, TensorLayout.MX_B_NN):
        if space is not MemorySpace.Mat:
            raise ctx.fail(f"The operator {ctx.name} of an MX-layout tensor requires "
                           "target_memory=MemorySpace.Mat")
        b = R if layout is TensorLayout.MX_A_ZZ else C
        view = TileView(valid_shape=vshape, blayout=b, slayout=b, fractal=32)
    elif space is MemorySpace.Mat:
        dims = [static(d) for d in shape]
        if len(shape) == 2 and dims[0] == 1:
            view = TileView(valid_shape=vshape, blayout=R, slayout=N)
        elif layout is TensorLayout.DN:
            view = TileView(valid_shape=vshape, blayout=R, slayout=C)
        else:
            view = TileView(valid_shape=vshape, blayout=C, slayout=R)
    elif space is not None and static(shape[-1]) == 1:
        view = TileView(valid_shape=vshape, blayout=C)
    else:  # no target: the default view, rebuilt by memory-space inference once placed
        view = TileView(valid_shape=vshape)
    return tile(shape, src.dtype, space, view)


@type_rule("tile.store")
def store(ctx: Deduction) -> Type:
    ctx.nargs(3, 4)
    t = ctx.tile(0)
    offsets = ctx.tuple_arg(1)
    out = ctx.tensor(2)
    atomic = ctx.kw_int("atomic", 0)
    if atomic == 1:
        dtype_in(ctx, out.dtype, (DType.FP32, DType.BF16, DType.FP16, DType.INT32, DType.INT16,
                                  DType.INT8), "atomic add dtype")
    if ctx.has(3):
        # the N-D partition a flattened (2-D) tile is written as: the tensor's rank, the tile's size
        parts = ctx.tuple_arg(3)
        n_parts, n_tile = numel(parts), numel(t.shape)
        if len(parts) != out.rank or (n_parts is not None and n_tile is not None
                                      and n_parts != n_tile):
            raise ctx.fail(f"The operator {ctx.name} cannot write a {shape_str(t.shape)} tile as "
                           f"a {shape_str(parts)} partition of a rank-{out.rank} tensor")
        _bounds(ctx, "writes", offsets, parts, out.shape, "destination")
        return out
    # Only the tile's valid region is moved by the DMA (a gemv's [16, N] accumulator holds one
    # valid row): that is what must fit.
    same_rank = write_bounds(ctx, offsets, valid_of(t), out.shape, "destination")
    if not same_rank or out.view is None or not out.view.valid_shape:
        return out
    written = [static(o) for o in offsets]
    tv = [static(v) for v in valid_of(t)][-len(offsets):]
    new: list[Expr] = []
    grew = False
    for k, cur in enumerate(out.view.valid_shape):
        c, o, v = static(cur), written[k], tv[k] if k < len(tv) else None
        if c is not None and o is not None and v is not None and o + v > c:
            new.append(idx(min(o + v, static(out.shape[k]) or o + v)))
            grew = True
        else:
            new.append(cur)
    return replace(out, view=replace(out.view, valid_shape=tuple(new))) if grew else out


@type_rule("tile.move")
def move(ctx: Deduction) -> Type:
    ctx.nargs(1)
    a = ctx.tile(0)
    target = space_kwarg(ctx)
    if target is None:
        raise ctx.fail(f"The operator {ctx.name} requires the target_memory attribute")
    src = effective_tile_view(a)
    dt = a.dtype
    scale = target in (MemorySpace.LeftScale, MemorySpace.RightScale)
    if scale:
        if a.rank != 2:
            raise ctx.fail(f"The operator {ctx.name} into LeftScale/RightScale requires a 2D "
                           f"tile, got rank {a.rank}")
        if a.memory_space is not MemorySpace.Mat:
            raise ctx.fail(f"The operator {ctx.name} into LeftScale/RightScale requires the input "
                           "tile to be in Mat memory")
        if dt not in (DType.UINT8, DType.FP8E8M0):
            raise ctx.fail(f"The operator {ctx.name} into LeftScale/RightScale requires UINT8 or "
                           f"FP8E8M0 dtype, but got {dt.short}")
        want = R if target is MemorySpace.LeftScale else C
        if (src.blayout, src.slayout, src.fractal) != (want, want, 32):
            raise ctx.fail(f"The operator {ctx.name} into {target.name} requires the source Mat "
                           "tile to use the matching scale layout")
        if dt is DType.UINT8:
            dt = DType.FP8E8M0
    imp = implicit_tile_view(a.shape, target)
    if SPACES[target].flat:
        b, s = src.blayout, src.slayout
    else:
        b, s = imp.blayout, imp.slayout
    if target is MemorySpace.Right:
        b = R
    kb, ks = ctx.kwargs.get("blayout"), ctx.kwargs.get("slayout")
    if isinstance(kb, TileLayout):
        b = kb
    if isinstance(ks, TileLayout):
        s = ks
    if scale and (b, s) != (imp.blayout, imp.slayout):
        raise ctx.fail(f"The operator {ctx.name} does not allow blayout/slayout to override the "
                       f"hardware-fixed layout for {target.name}")
    view = TileView(valid_shape=src.valid_shape, blayout=b, slayout=s, fractal=imp.fractal,
                    pad=src.pad)
    return tile(a.shape, dt, target, view)


@type_rule("tile.extract")
def extract(ctx: Deduction) -> Type:
    ctx.nargs(4)
    a = ctx.tile(0)
    ctx.scalar(1)
    ctx.scalar(2)
    shape = ctx.tuple_arg(3)
    if len(shape) != 2 or a.rank != 2:
        raise ctx.fail(f"The operator {ctx.name} requires a 2-D source and a 2-D shape")
    for k, (d, sd) in enumerate(zip(shape, a.shape, strict=False)):
        x, y = static(d), static(sd)
        if x is not None and y is not None and x > y:
            raise ctx.fail(f"The operator {ctx.name} requires shape dim {k} ({x}) <= source dim "
                           f"({y})")
    target = space_kwarg(ctx, MemorySpace.Vec) or MemorySpace.Vec
    offsets = (ctx.args[1], ctx.args[2])
    _bounds(ctx, "reads", offsets, shape, a.shape, "source")
    valid = window_valid(shape, offsets, valid_of(a))
    view = replace(implicit_tile_view(shape, target), valid_shape=valid)
    if target is MemorySpace.Left:
        view = replace(view, blayout=R, slayout=R)
    elif target is MemorySpace.Right:
        view = replace(view, blayout=R, slayout=C)
    if target in (MemorySpace.Left, MemorySpace.Right) and tuple(valid) != tuple(shape):
        view = replace(view, compact=CompactMode.normal)
    return tile(shape, a.dtype, target, view)


@type_rule("tile.create")
def create(ctx: Deduction) -> Type:
    ctx.nargs(1)
    shape = ctx.tuple_arg(0)
    for k, d in enumerate(shape):
        v = static(d)
        if v is None:
            raise ctx.fail(f"The operator {ctx.name} shape element {k} must be a compile-time "
                           "constant (ConstInt)")
        if v <= 0:
            raise ctx.fail(f"The operator {ctx.name} shape element {k} must be positive, got {v}")
    if not shape:
        raise ctx.fail(f"The operator {ctx.name} requires non-empty shape")
    dt = ctx.kw_dtype("dtype")
    target = space_kwarg(ctx)
    if target in (MemorySpace.LeftScale, MemorySpace.RightScale):
        raise ctx.fail(f"The operator {ctx.name} does not support target_memory=LeftScale/"
                       "RightScale; create the scale tile with tile.load to Mat followed by "
                       "tile.move")
    transpose, flat = ctx.kw_bool("transpose"), ctx.kw_bool("flat_layout")
    if transpose and (len(shape) != 2 or target is not MemorySpace.Mat):
        raise ctx.fail(f"The operator {ctx.name} supports transpose=true only for a 2D tile with "
                       "target_memory=Mat (L1)")
    if flat and (target is not MemorySpace.Mat or transpose):
        raise ctx.fail(f"The operator {ctx.name} supports flat_layout=true only for "
                       "target_memory=Mat (L1) without transpose")
    if flat:
        return tile(shape, dt, MemorySpace.Mat, flat_view(shape))
    if target is MemorySpace.Acc:
        return tile(shape, dt, MemorySpace.Acc, None)
    if transpose:
        return tile(shape, dt, None, TileView(blayout=R, slayout=C))
    return tile(shape, dt, None, flat_view(shape))


@type_rule("tile.full")
def full(ctx: Deduction) -> Type:
    ctx.nargs(2)
    shape = positive_shape(ctx, 0)
    ctx.scalar(1)
    return tile(shape, ctx.kw_dtype("dtype"), None, flat_view(shape))


@type_rule("tile.ci")
def ci(ctx: Deduction) -> Type:
    ctx.nargs(2)
    ctx.scalar(0)
    shape = positive_shape(ctx, 1)
    dt = ctx.kw_dtype("dtype", DType.INT32)
    dtype_in(ctx, dt, (DType.INT16, DType.INT32, DType.UINT16, DType.UINT32))
    return tile(shape, dt, None, flat_view(shape))


def _with_valid(ctx: Deduction, shape: Shape, i: int) -> TileView:
    return flat_view(shape, ctx.tuple_arg(i) if ctx.has(i) else None)


@type_rule("tile.tri")
def tri(ctx: Deduction) -> Type:
    ctx.nargs(2, 3)
    ctx.scalar(0)
    shape = positive_shape(ctx, 1)
    dt = ctx.kw_dtype("dtype", DType.INT32)
    dtype_in(ctx, dt, (DType.INT8, DType.UINT8, DType.INT16, DType.INT32, DType.UINT16,
                       DType.UINT32, DType.FP16, DType.BF16, DType.FP32))
    return tile(shape, dt, None, _with_valid(ctx, shape, 2))


@type_rule("tile.random")
def random(ctx: Deduction) -> Type:
    ctx.nargs(7, 8)
    for i in range(6):
        ctx.scalar(i)
    shape = positive_shape(ctx, 6)
    if len(shape) != 2:
        raise ctx.fail(f"The operator {ctx.name} requires a 2-D shape")
    dt = ctx.kw_dtype("dtype", DType.UINT32)
    dtype_in(ctx, dt, (DType.INT32, DType.UINT32))
    if ctx.kw_int("rounds", 10) not in (7, 10):
        raise ctx.fail(f"The operator {ctx.name} requires rounds to be 7 or 10")
    return tile(shape, dt, None, _with_valid(ctx, shape, 7))


@type_rule("tile.read")
def read(ctx: Deduction) -> Type:
    ctx.nargs(2)
    t = ctx.shaped(0)
    ctx.tuple_arg(1)
    return ScalarType(t.dtype)


@type_rule("tile.write")
def write(ctx: Deduction) -> Type:
    ctx.nargs(3)
    t = ctx.shaped(0)
    ctx.tuple_arg(1)
    ctx.scalar(2)
    return t


@type_rule("tile.mgather")
def mgather(ctx: Deduction) -> Type:
    """As the reference: element mode gives the index's shape; row mode one row per index, of
    mem's last extent (a Vec index is [1, R] or [R, 1], a Mat one [1, R]). The valid shape is
    the index's valid region (Vec) or the explicit valid_shape (Mat: after the scratch in
    element mode)."""
    ctx.nargs(2, 4)
    mem = ctx.tensor(0)
    ix = ctx.shaped(1)
    target = space_kwarg(ctx, MemorySpace.Vec)
    elem = ctx.kw_int("coalesce", 0) == 1
    if ix.rank != 2:
        raise ctx.fail(f"The operator {ctx.name} requires a 2D idx, but got rank {ix.rank}",
                       argument=1)
    valid: Shape | None = None
    if elem:
        shape = ix.shape
    else:
        lead = ix.shape[0]
        row_dim = 1 if isinstance(lead, ConstInt) and lead.value == 1 else 0
        if target is MemorySpace.Mat and row_dim != 1:
            raise ctx.fail(f"The operator {ctx.name} Mat row mode requires a [1, R] GM idx tensor",
                           argument=1)
        shape = (ix.shape[row_dim], mem.shape[-1])
        if isinstance(ix, TileType) and ix.view is not None and len(ix.view.valid_shape) == 2:
            valid = (ix.view.valid_shape[row_dim], mem.shape[-1])
    if target is MemorySpace.Mat:
        # Mat mode: args are (mem, idx[, scratch in elem mode][, valid_shape]); the output is
        # col-major with a row-major inner box, valid_shape narrowing what is valid.
        at = 3 if elem else 2
        given = ctx.tuple_arg(at) if ctx.has(at) and isinstance(ctx.args[at], MakeTuple) else ()
        if given and len(given) != len(shape):
            raise ctx.fail(f"The operator {ctx.name} Mat valid_shape must have rank {len(shape)}, "
                           f"but got {len(given)}")
        return tile(shape, mem.dtype, None, TileView(valid_shape=tuple(given),
                                                     blayout=TileLayout.col_major,
                                                     slayout=TileLayout.row_major))
    if elem and isinstance(ix, TileType) and ix.view is not None and ix.view.valid_shape:
        valid = ix.view.valid_shape
    return tile(shape, mem.dtype, None,
                flat_view(shape, valid if valid is not None and tuple(valid) != tuple(shape) else None))


@type_rule("tile.gather_row", "tensor.gather_row")
def gather_row(ctx: Deduction) -> Type:
    """The accumulator's type (DPS: the window lands in it). As the reference checks: the
    accumulator and the GM source share a dtype; `shapes` is static (it sizes the transfer
    window; a dynamic row count goes in valid_shape); an explicit valid_shape has the rank of
    shapes, integer extents none provably above shapes', and is static under transpose."""
    ctx.nargs(5, 6)
    acc, src = ctx.shaped(0), ctx.tensor(1)
    if acc.dtype is not src.dtype:
        raise ctx.fail(f"The operator {ctx.name} requires acc and src to share dtype, but got "
                       f"{acc.dtype.name} and {src.dtype.name}")
    shapes = ctx.tuple_arg(4)
    if any(not isinstance(d, ConstInt) for d in shapes):
        raise ctx.fail(f"The operator {ctx.name} requires shapes to be compile-time constants; "
                       "pass a dynamic row count through valid_shape instead", argument=4)
    valid = ctx.opt_tuple(5)
    if valid is not None:
        if len(valid) != len(shapes):
            raise ctx.fail(f"The operator {ctx.name} requires valid_shape to have the same rank "
                           f"as shapes ({len(shapes)}), but got rank {len(valid)}", argument=5)
        for k, (v, s) in enumerate(zip(valid, shapes, strict=True)):
            if isinstance(v, ConstInt) and isinstance(s, ConstInt) and not 0 <= v.value <= s.value:
                raise ctx.fail(f"The operator {ctx.name}: valid_shape dimension {k} extent "
                               f"{v.value} lies outside 0..{s.value} (shapes[{k}])", argument=5)
        if ctx.kwargs.get("transpose") and any(not isinstance(v, ConstInt) for v in valid):
            raise ctx.fail(f"The operator {ctx.name} does not support a dynamic valid_shape "
                           "together with transpose=True", argument=5)
    return acc


@type_rule("tile.mscatter", i=2)
def output_tensor(ctx: Deduction, *, i: int) -> Type:
    """The type of the output tensor argument `i` (scatter-to-GM ops return their target)."""
    return ctx.shaped(i)

__all__ = ["positive_shape", "space_kwarg", "window_valid"]


@type_rule("tile.alloc", "tensor.alloc")
def alloc(ctx: Deduction) -> Type:
    """`pl.tile.alloc(pl.Mem.Vec, 16384)`: the base Ptr of an allocation of `size` bytes in a
    memory space (stored as the space's integer code, as the reference stores it)."""
    ctx.nargs(2)
    space = ctx.args[0]
    if stored_space(space) is None:  # (ArgSpec.stored made it)
        raise ctx.fail(f"The operator {ctx.name} requires the first argument to be a memory space "
                       "such as pl.Mem.Vec", argument=0)
    size = ctx.scalar(1)
    if not size.is_int() or size is DType.BOOL:
        raise ctx.fail(f"The operator {ctx.name} requires the size to be an integer, but got "
                       f"{size.short}", argument=1)
    return PtrType()
