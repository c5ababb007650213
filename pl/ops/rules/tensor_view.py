"""Type rules of the tensor view, layout and data-rearranging ops (slice, reshape, view,
transpose, assemble, fillpad_expand, set_validshape, reinterpret_view, expand_clone, concat, sort,
gather/scatter, aiv_shard/aic_gather) and the tensor-level queries.

`tensor.transpose` of a 2-D tensor yields a DN TensorView with swapped strides; `tensor.view` with
a layout kwarg carries that layout's strides; a partial valid_shape becomes a TensorView.
"""

from __future__ import annotations

from pl.ir.enums import DType, MemorySpace, PadValue, TensorLayout
from pl.ir.expr import BinaryExpr, ConstInt, Expr
from pl.ir.operators import BinaryOp
from pl.ir.types import ScalarType, TensorType, TensorView, TileType, TupleType, Type
from pl.ops.marks import type_rule
from pl.ops.rules.tensor import row_major_strides, tensor
from pl.ops.rules.tile_mem import positive_shape, window_valid
from pl.ops.rules.util import (
    Deduction,
    Shape,
    idx,
    numel,
    pad_kwarg,
    shape_str,
    static,
    threshold_dtype,
    valid_shape_of,
    write_bounds,
)

_MX_LAYOUTS = frozenset({TensorLayout.MX_A_ZZ, TensorLayout.MX_B_NN})


def _plain_layout(ctx: Deduction, a: TensorType | TileType) -> None:
    """A zero-copy view (slice, reshape, view, transpose, reinterpret) of an MX-layout tensor
    would reread its packed scale blocks as plain elements: refused, as the reference does."""
    if isinstance(a, TensorType) and a.view is not None and a.view.layout in _MX_LAYOUTS:
        raise ctx.fail(f"{ctx.name} does not support MX-layout tensors", argument=0)


@type_rule("tensor.slice")
def slice_(ctx: Deduction) -> Type:
    ctx.nargs(3, 5)
    a = ctx.shaped(0)
    _plain_layout(ctx, a)
    shape, offsets = positive_shape(ctx, 1), ctx.tuple_arg(2)
    valid = ctx.opt_tuple(3) or None  # builders pass () for an absent valid_shape
    drops = {static(d) for d in (ctx.opt_tuple(4) or ())}
    if valid is not None and len(valid) != len(shape):
        raise ctx.fail(f"{ctx.name}: valid_shape has {len(valid)} dims but the slice shape has "
                       f"{len(shape)}", argument=3)
    if len(shape) == len(offsets) == len(a.shape):
        # The window read rule of tile.load, as in the reference: the window lies inside the
        # source unless clamp=True sanctions an overhang, and the result is valid only where
        # the source is (so a clamped window is valid up to the source edge). `x[-1]` is not
        # wrapped around.
        full_valid = window_valid(shape, offsets, valid_shape_of(a), valid, src_shape=a.shape,
                                  clamp=ctx.kw_bool("clamp"), ctx=ctx)
    else:
        # A window of another rank than its source reinterprets the source's axes (as a
        # rank-mismatched write does): it keeps the valid region it was given, unchecked.
        full_valid = tuple(valid) if valid is not None else tuple(shape)
    keep = [k for k in range(len(shape)) if k not in drops]
    new = tuple(shape[k] for k in keep)
    view = None
    if tuple(full_valid) != tuple(shape):
        view = TensorView(valid_shape=tuple(full_valid[k] for k in keep))
    if ctx.kwargs.get("pad_value") is not None:
        pad = ctx.kwargs["pad_value"]
        if isinstance(pad, PadValue) and pad is not PadValue.null:
            view = TensorView(valid_shape=view.valid_shape if view else (), pad=pad)
    return tensor(new, a.dtype, view)


def _valid_view(ctx: Deduction, i: int, shape: Shape) -> TensorView | None:
    """A TensorView carrying positional valid_shape `i` when it is given and partial."""
    valid = ctx.opt_tuple(i) if ctx.has(i) else None
    if not valid or tuple(valid) == tuple(shape):
        return None
    return TensorView(valid_shape=valid)


@type_rule("tensor.reshape")
def reshape(ctx: Deduction) -> Type:
    ctx.nargs(2, 3)
    a = ctx.shaped(0)
    _plain_layout(ctx, a)
    new = ctx.tuple_arg(1)
    n0, n1 = numel(a.shape), numel(new)
    if n0 is not None and n1 is not None and n0 != n1:
        raise ctx.fail(f"{ctx.name}: cannot reshape tensor of size {n0} into shape with size {n1}")
    return tensor(new, a.dtype, _valid_view(ctx, 2, new))


@type_rule("tensor.view")
def view(ctx: Deduction) -> Type:
    ctx.nargs(1, 3)
    a = ctx.shaped(0)
    _plain_layout(ctx, a)
    layout = ctx.kwargs.get("layout")
    if layout in _MX_LAYOUTS:
        raise ctx.fail(f"{ctx.name} does not support MX layouts")
    src_layout = a.view.layout if isinstance(a, TensorType) and a.view is not None \
        else TensorLayout.ND
    new = ctx.opt_tuple(1) or a.shape
    n0, n1 = numel(a.shape), numel(new)
    if n0 is not None and n1 is not None and n0 != n1:
        raise ctx.fail(f"{ctx.name}: cannot reinterpret tensor of size {n0} as shape with size "
                       f"{n1}")
    valid = _valid_view(ctx, 2, new)
    if not ctx.opt_tuple(1) and isinstance(layout, TensorLayout) and layout is not src_layout:
        # The same memory read in the other layout: the trailing pair of dims (and of the
        # source's valid shape) swaps, as in the reference.
        if a.rank < 2:
            raise ctx.fail(f"{ctx.name}: cross-layout reinterpret requires rank >= 2, got {a.rank}")
        new = tuple(a.shape[:-2]) + (a.shape[-1], a.shape[-2])
        sv = a.view.valid_shape if isinstance(a, TensorType) and a.view is not None else ()
        if sv and tuple(sv) != tuple(a.shape):
            valid = TensorView(valid_shape=tuple(sv[:-2]) + (sv[-1], sv[-2]))
    if not isinstance(layout, TensorLayout):
        return tensor(new, a.dtype, valid)
    strides = row_major_strides(new)
    if layout is TensorLayout.DN and strides is not None and len(new) >= 2:
        rows = static(new[-2])
        strides = strides[:-2] + [1, rows]  # type: ignore[list-item]
    stride = tuple(idx(s) for s in strides) if strides is not None else ()
    return tensor(new, a.dtype, TensorView(stride=stride, layout=layout,
                                           valid_shape=valid.valid_shape if valid else ()))


@type_rule("tensor.transpose")
def transpose(ctx: Deduction) -> Type:
    ctx.nargs(3, 4)
    a = ctx.shaped(0)
    _plain_layout(ctx, a)
    i0, j0 = ctx.int_arg(1), ctx.int_arg(2)
    if i0 is None or j0 is None:
        raise ctx.fail(f"The operator {ctx.name} requires constant axes")
    r = a.rank
    i, j = i0 % r if i0 < 0 else i0, j0 % r if j0 < 0 else j0
    if i == j or not (0 <= i < r and 0 <= j < r):
        raise ctx.fail(f"The operator {ctx.name} requires two distinct axes, got {i0} and {j0}")
    shape = list(a.shape)
    shape[i], shape[j] = shape[j], shape[i]
    strides = row_major_strides(a.shape)
    if strides is None:
        return tensor(tuple(shape), a.dtype)
    strides[i], strides[j] = strides[j], strides[i]
    layout = TensorLayout.DN if r == 2 else TensorLayout.ND
    return tensor(tuple(shape), a.dtype,
                  TensorView(stride=tuple(idx(s) for s in strides), layout=layout))


@type_rule("tensor.assemble")
def assemble(ctx: Deduction) -> Type:
    ctx.nargs(3)
    tgt, src = ctx.shaped(0), ctx.shaped(1)
    off = ctx.tuple_arg(2)
    # Only the source's valid region is transferred: that is what must fit.
    write_bounds(ctx, off, valid_shape_of(src), tgt.shape, "target")
    return tensor(tgt.shape, tgt.dtype) if not isinstance(tgt, TensorType) else tgt


@type_rule("tensor.fillpad_expand")
def fillpad_expand(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a = ctx.shaped(0)
    shape = ctx.tuple_arg(1)
    for d, s in zip(shape, a.shape, strict=False):
        x, y = static(d), static(s)
        if x is not None and y is not None and x < y:
            raise ctx.fail(f"The operator {ctx.name} requires every new dim >= the source dim, "
                           f"but got {shape_str(shape)} for {shape_str(a.shape)}")
    return tensor(shape, a.dtype, TensorView(pad=pad_kwarg(ctx)))


@type_rule("tensor.set_validshape")
def set_validshape(ctx: Deduction) -> Type:
    ctx.nargs(3)
    a = ctx.shaped(0)
    valid = ctx.dims(1, 2)
    return tensor(a.shape, a.dtype, TensorView(valid_shape=tuple(a.shape[:-2]) + valid))


@type_rule("tensor.reinterpret_view")
def reinterpret_view(ctx: Deduction) -> Type:
    ctx.nargs(1, 2)
    a = ctx.shaped(0)
    _plain_layout(ctx, a)
    dt = ctx.kw_dtype("dtype")
    if ctx.has(1):
        return tensor(ctx.tuple_arg(1), dt)
    last = static(a.shape[-1])
    if last is None:
        return tensor(a.shape, dt)
    bits = last * a.dtype.bits
    if bits % dt.bits:
        raise ctx.fail(f"The operator {ctx.name} cannot reinterpret {shape_str(a.shape)} "
                       f"{a.dtype.short} as {dt.short}")
    return tensor(tuple(a.shape[:-1]) + (idx(bits // dt.bits),), dt)


@type_rule("tensor.expand_clone")
def expand_clone(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a, t = ctx.shaped(0), ctx.shaped(1)
    if a.rank != 3:
        raise ctx.fail(f"{ctx.name} requires input rank to be 3, but got {a.rank}")
    return tensor(t.shape, a.dtype)


@type_rule("tensor.concat")
def concat(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a, b = ctx.shaped(0), ctx.shaped(1)
    c0, c1 = static(a.shape[-1]), static(b.shape[-1])
    cols = idx(c0 + c1) if c0 is not None and c1 is not None else a.shape[-1]
    return tensor(tuple(a.shape[:-1]) + (cols,), a.dtype)


@type_rule("tensor.sort32")
def sort32(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a = ctx.shaped(0)
    last = static(a.shape[-1])
    return tensor(tuple(a.shape[:-1]) + ((idx(2 * last),) if last is not None
                                         else (a.shape[-1],)), a.dtype)


@type_rule("tensor.aiv_shard", gather_=False)
@type_rule("tensor.aic_gather", gather_=True)
def split_rule(ctx: Deduction, *, gather_: bool) -> Type:
    ctx.nargs(1)
    a = ctx.shaped(0)
    split = ctx.kw_int("split")
    if split is None:
        raise ctx.fail(f"The operator {ctx.name} requires the split attribute")
    shape = list(a.shape)
    if split in (1, 2) and len(shape) >= split:
        d = static(shape[split - 1])
        if d is not None:
            shape[split - 1] = idx(d * 2 if gather_ else (d + 1) // 2)
    return tensor(tuple(shape), a.dtype)


@type_rule("tensor.gather")
def gather(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a, ix = ctx.shaped(0), ctx.shaped(1)
    return tensor(ix.shape, a.dtype)


@type_rule("tensor.gather_compare")
def gather_compare(ctx: Deduction) -> Type:
    ctx.nargs(2, 3)
    a = ctx.shaped(0)
    threshold_dtype(ctx, 1, a.dtype)
    cols = ctx.kw_int("out_cols")
    if cols is None or cols <= 0:
        raise ctx.fail(f"The operator {ctx.name} requires a positive out_cols")
    rows = a.shape[0]
    return TupleType((tensor((rows, idx(cols)), DType.INT32),
                      tensor((idx(1), rows), ctx.kw_dtype("count_dtype", DType.INT32))))


@type_rule("tensor.gather_mask")
def gather_mask(ctx: Deduction) -> Type:
    ctx.nargs(1)
    a = ctx.shaped(0)
    p = ctx.kw_int("mask_pattern")
    div = 2 if p in (1, 2) else 4 if p in (3, 4, 5, 6) else 1
    cols = static(a.shape[-1])
    shape = tuple(a.shape[:-1]) + ((idx(cols // div),) if cols is not None else (a.shape[-1],))
    return tensor(shape, ctx.kw_dtype("output_dtype", a.dtype))


@type_rule("tensor.mrgsort_format2")
def mrgsort2(ctx: Deduction) -> Type:
    """The merged list: the sources' shape with the last extents summed (as the reference). The
    2-4 sources are FP16/FP32 of one dtype and rank, equal on every axis but the last."""
    ctx.nargs(2, 4)
    srcs = [ctx.shaped(i) for i in range(len(ctx.args))]
    first = srcs[0]
    if first.dtype not in (DType.FP16, DType.FP32) or first.rank == 0:
        raise ctx.fail(f"The operator {ctx.name} requires FP16 or FP32 sources, but got "
                       f"{first.dtype.name}")
    for i, t in enumerate(srcs[1:], 1):
        if t.dtype is not first.dtype or t.rank != first.rank or any(
                isinstance(a, ConstInt) and isinstance(b, ConstInt) and a.value != b.value
                for a, b in zip(t.shape[:-1], first.shape[:-1], strict=True)):
            raise ctx.fail(f"The operator {ctx.name} requires sources of one dtype and rank, equal "
                           f"on every axis but the last; argument {i} differs", argument=i)
    lasts = [t.shape[-1] for t in srcs]
    if all(isinstance(d, ConstInt) for d in lasts):
        last: Expr = idx(sum(d.value for d in lasts if isinstance(d, ConstInt)))
    else:
        last = lasts[0]
        for d in lasts[1:]:
            last = BinaryExpr(BinaryOp.Add, last, d, DType.INDEX)
    return tensor((*first.shape[:-1], last), first.dtype)


@type_rule("tensor.paged_gather")
def paged_gather(ctx: Deduction) -> Type:
    """The static on-chip buffer the rows are gathered into: [max_indices, size] ([size,
    max_indices] under is_trans); the runtime row count (indices' last dim) only says how many
    rows are filled. The operands are checked as the reference checks them."""
    ctx.nargs(3)
    src, ix, table = ctx.tensor(0), ctx.tensor(1), ctx.tensor(2)
    if src.dtype not in (DType.FP16, DType.BF16, DType.FP32, DType.INT8) or src.rank != 2:
        raise ctx.fail(f"The operator {ctx.name} requires a 2D src of dtype FP16, BF16, FP32 or "
                       f"INT8, but got {src.dtype.name} rank {src.rank}", argument=0)
    for i, what, t in ((1, "indices", ix), (2, "block_table", table)):
        if t.dtype is not DType.INT32:
            raise ctx.fail(f"The operator {ctx.name} requires {what} dtype to be INT32, but got "
                           f"{t.dtype.name}", argument=i)
        lead = t.shape[0] if t.rank == 2 else None
        if t.rank not in (1, 2) or (t.rank == 2 and getattr(lead, "value", None) != 1):
            raise ctx.fail(f"The operator {ctx.name} requires {what} of shape [n] or [1, n]",
                           argument=i)
    block, size, most = (ctx.kw_int(k) for k in ("block_size", "size", "max_indices"))
    col_off = ctx.kw_int("col_off", 0) or 0
    for key, v in (("block_size", block), ("size", size), ("max_indices", most)):
        if v is None or v <= 0:
            raise ctx.fail(f"The operator {ctx.name} requires {key} > 0, but got {v}")
    assert size is not None and most is not None
    if col_off < 0:
        raise ctx.fail(f"The operator {ctx.name} requires col_off >= 0, but got {col_off}")
    trans = bool(ctx.kwargs.get("is_trans"))
    if trans and ctx.kwargs.get("space", MemorySpace.Mat) not in (None, MemorySpace.Mat):
        raise ctx.fail(f"The operator {ctx.name} requires space=Mat when is_trans=True")
    cols = src.shape[1]
    if isinstance(cols, ConstInt) and col_off + size > cols.value:
        raise ctx.fail(f"The operator {ctx.name} requires col_off + size ({col_off + size}) <= src "
                       f"columns ({cols.value})")
    shape = (idx(size), idx(most)) if trans else (idx(most), idx(size))
    return tensor(shape, src.dtype)


@type_rule("tensor.get_block_idx", "tensor.get_block_num", "tensor.get_subblock_idx")
def scalar_index(ctx: Deduction) -> Type:
    ctx.nargs(0)
    return ScalarType(DType.INDEX)
