"""Converters of ConvertTensorToTileOps for the tensor ops that expand to several tile statements:
expand_clone, fillpad_expand, gather_row, gather_compare, and the ones built on their index forms.

Guarantees: like every converter (lowering/tensor_to_tile/convert.py), each receives the call's
bridged arguments and returns `(prologue statements, result expression)`, with the tile program
computing what the tensor op computes (the interpreter's function of the tensor op is the
meaning). The prologue is in SSA form (a loop carries its value through an iter arg). A form the
tile ops cannot express (a dynamic extent, a rank the conversion does not cover) is a located
PlError, never a guess.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from pl.errors import PlError
from pl.ir.enums import DType, MemorySpace
from pl.ir.expr import BinaryExpr, Call, ConstFloat, ConstInt, Expr, IterArg, MakeTuple, UnaryExpr, Var
from pl.ir.operators import BinaryOp, UnaryOp
from pl.ir.span import Span
from pl.ir.stmt import AssignStmt, ForStmt, Stmt, YieldStmt, make_body
from pl.ir.types import TensorType, TileType, static_shape
from pl.lowering.tensor_to_tile.common import (
    full_value,
    index,
    index_mul,
    index_tuple,
    mk,
    shape_tuple,
    zeros,
)
from pl.ops.marks import converts

Result = tuple[list[Stmt], Expr]


class _Emitter:
    """The prologue being built: `emit` binds a call to a fresh var named `hint`."""

    def __init__(self, span: Span) -> None:
        self.span = span
        self.stmts: list[Stmt] = []

    def emit(self, hint: str, call: Call, into: list[Stmt] | None = None) -> Var:
        var = Var(hint, call.type, span=self.span)
        (self.stmts if into is None else into).append(AssignStmt(var, call, span=self.span))
        return var

    def load(self, hint: str, tensor: Expr) -> Expr:
        """A tensor operand as a Vec tile of its whole (static) shape; a tile as it is."""
        t = tensor.type
        if not isinstance(t, TensorType):
            return tensor
        whole = shape_tuple(t.shape, self.span)
        return self.emit(hint, mk("tile.load", [tensor, zeros(t.rank, self.span), whole, whole],
                                  [("target_memory", MemorySpace.Vec)], (), self.span))

    def create(self, hint: str, shape: tuple[int, ...], dtype: DType) -> Var:
        return self.emit(hint, mk("tile.create", [index_tuple(shape, self.span)],
                                  [("dtype", dtype), ("target_memory", MemorySpace.Vec)], (),
                                  self.span))

    def full(self, hint: str, shape: tuple[int, ...], value: int, dtype: DType) -> Var:
        return self.emit(hint, mk("tile.full", [index_tuple(shape, self.span),
                                                full_value(value, dtype, self.span)],
                                  [("dtype", dtype)], (), self.span))

    def reshape(self, hint: str, tile: Expr, shape: tuple[int, ...]) -> Expr:
        t = tile.type
        if isinstance(t, TileType) and static_shape(t.shape) == shape:
            return tile
        return self.emit(hint, mk("tile.reshape", [tile, index_tuple(shape, self.span)], (), (),
                                  self.span))


def _static(name: str, t: Any, span: Span) -> tuple[int, ...]:
    shape = static_shape(t.shape) if isinstance(t, TensorType | TileType) else None
    if shape is None:
        raise PlError(f"{name}: the conversion to tile ops needs static shapes", span)
    return shape


@converts("tensor.expand_clone")
def _expand_clone(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    """The input broadcast along its one extent-1 axis `d` to the target's shape S, as a tile:
    with the axes before d flattened to `outer` and those after it to `inner`, an input with
    outer == 1 is a column broadcast (tile.col_expand of [1, inner] to [S[d], inner]), one with
    inner == 1 a row broadcast (tile.row_expand of [outer, 1] to [outer, S[d]]); otherwise each
    of the outer rows is column-broadcast in a loop and assembled. The target's values are not
    read (the tensor op returns a new tensor)."""
    name = "tensor.expand_clone"
    src_shape, shape = _static(name, args[0].type, span), _static(name, args[1].type, span)
    if len(src_shape) != len(shape):
        raise PlError(f"{name}: the input's rank {len(src_shape)} differs from the target's "
                      f"{len(shape)}", span)
    axes = [d for d, (a, b) in enumerate(zip(src_shape, shape, strict=True)) if a != b]
    if any(src_shape[d] != 1 for d in axes) or len(axes) > 1:
        raise PlError(f"{name}: the conversion broadcasts one extent-1 axis of the input; "
                      f"{list(src_shape)} to {list(shape)} is not that", span)
    e = _Emitter(span)
    src = e.load("expand_clone_input", args[0])
    dtype = args[0].type.dtype  # type: ignore[attr-defined]
    if not axes:
        return e.stmts, mk("tile.move", [src], [("target_memory", MemorySpace.Vec)], (), span)
    d = axes[0]
    outer, n, inner = math.prod(shape[:d]), shape[d], math.prod(shape[d + 1:])
    if inner == 1:
        col = e.reshape("expand_clone_col", src, (outer, 1))
        wide = e.emit("expand_clone_row", mk("tile.row_expand", [
            e.create("expand_clone_target", (outer, n), dtype), col], (), (), span))
        return e.stmts, _reshaped(wide, shape, span)
    rows = e.reshape("expand_clone_rows", src, (outer, inner))
    if outer == 1:
        tall = e.emit("expand_clone_col", mk("tile.col_expand", [
            e.create("expand_clone_target", (n, inner), dtype), rows], (), (), span))
        return e.stmts, _reshaped(tall, shape, span)
    # One column broadcast per outer row, assembled at row a * n of an [outer * n, inner] tile.
    acc0 = e.create("expand_clone_acc_init", (outer * n, inner), dtype)
    a = Var("expand_clone_i", index(0).type, span=span)
    acc = IterArg("expand_clone_acc", acc0.type, init=acc0, span=span)
    body: list[Stmt] = []
    row = e.emit("expand_clone_row", mk("tile.slice", [rows, index_tuple((1, inner), span),
                                                      MakeTuple((a, index(0, span)), span=span)],
                                        (), (), span), body)
    target = e.emit("expand_clone_target", mk("tile.create", [index_tuple((n, inner), span)],
                                              [("dtype", dtype),
                                               ("target_memory", MemorySpace.Vec)], (), span), body)
    block = e.emit("expand_clone_block", mk("tile.col_expand", [target, row], (), (), span), body)
    placed = e.emit("expand_clone_placed", mk("tile.assemble", [
        acc, block, MakeTuple((index_mul(a, n), index(0, span)), span=span)], (), (), span), body)
    body.append(YieldStmt((placed,), span=span))
    result = Var("expand_clone_result", acc0.type, span=span)
    e.stmts.append(ForStmt(a, index(0, span), index(outer, span), index(1, span), (acc,),
                           make_body(body), (result,), span=span))
    return e.stmts, _reshaped(result, shape, span)


def _reshaped(tile: Var, shape: tuple[int, ...], span: Span) -> Expr:
    t = tile.type
    if isinstance(t, TileType) and static_shape(t.shape) == shape:
        return tile
    return mk("tile.reshape", [tile, index_tuple(shape, span)], (), (), span)


@converts("tensor.fillpad_expand")
def _fillpad_expand(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    """tile.fillpad_expand of the input (a tensor input is loaded into Vec first)."""
    e = _Emitter(span)
    src = e.load("fillpad_expand_src", args[0])
    kw = [(k, v) for k, v in kwargs.items() if k == "pad_value" and v is not None]
    return e.stmts, mk("tile.fillpad_expand", [src, args[1]], kw, (), span)


@converts("tensor.gather_row")
def _gather_row(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    """tile.gather_row writes the window of the GM source into the accumulator tile (DPS), while
    the tensor op returns an updated copy and leaves its input alone. A tensor accumulator is
    loaded first; a Vec tile (an entry-loaded parameter other ops may read too) is copied first.
    A Mat accumulator is the reference's idiom, a fresh `tensor.create_l1` tile, and is written
    in place as the reference writes it."""
    e = _Emitter(span)
    acc = e.load("gather_row_acc", args[0])
    t = acc.type
    if acc is args[0] and isinstance(t, TileType) and t.memory_space is not MemorySpace.Mat:
        acc = e.emit("gather_row_acc", mk("tile.move", [acc], [("target_memory", MemorySpace.Vec)],
                                          (), span))
    kw = [("transpose", bool(kwargs.get("transpose", False)))]
    return e.stmts, mk("tile.gather_row", [acc, *args[1:]], kw, (), span)


@converts("tensor.gather_compare")
def _gather_compare(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    """tile.gather_compare with a UINT8 Vec workspace shaped like the (rank-2) input."""
    e = _Emitter(span)
    src = e.load("gather_compare_src", args[0])
    shape = _static("tensor.gather_compare", src.type, span)
    if len(shape) != 2:
        raise PlError(f"tensor.gather_compare: the conversion needs a rank-2 input, got rank "
                      f"{len(shape)}", span)
    tmp = e.create("gc_tmp", shape, DType.UINT8)
    kw = [(k, v) for k, v in kwargs.items()
          if k in ("cmp_mode", "offset", "out_cols", "count_dtype") and v is not None]
    return e.stmts, mk("tile.gather_compare", [src, args[1], tmp], kw, (), span)


# ---- the index forms of gather / scatter: a flat index, then tile.gather / tile.scatter ---------

_I32 = DType.INT32


def _const(value: int | float, dtype: DType, span: Span) -> Expr:
    return ConstFloat(float(value), dtype, span=span) if dtype.is_float() \
        else ConstInt(int(value), dtype, span=span)


def _rank2(name: str, *exprs: Expr, span: Span) -> list[tuple[int, int]]:
    shapes = [_static(name, x.type, span) for x in exprs]
    if any(len(s) != 2 for s in shapes):
        raise PlError(f"{name}: the conversion to tile ops covers rank-2 operands, got shapes "
                      f"{', '.join(str(list(s)) for s in shapes)}", span)
    return [(s[0], s[1]) for s in shapes]


def _as_i32(e: _Emitter, hint: str, tile: Expr) -> Expr:
    t = tile.type
    if isinstance(t, TileType) and t.dtype is _I32:
        return tile
    return e.emit(hint, mk("tile.cast", [tile], [("target_type", _I32), ("mode", 0)], (), e.span))


def _row_major_index(e: _Emitter, rows: Expr, cols: Expr, width: int) -> Var:
    """`rows[i] * width + cols[i, j]` (INT32): the row-major flat index of (rows[i], cols[i, j])
    in a buffer `width` elements wide; `rows` is [n, 1], `cols` [n, k]."""
    base = e.emit("flat_row_base", mk("tile.muls", [rows, _const(width, _I32, e.span)], (), (),
                                      e.span))
    return e.emit("flat_idx", mk("tile.row_expand_add", [cols, base], (), (), e.span))


def _row_numbers(e: _Emitter, n: int) -> Expr:
    """[n, 1] INT32: 0, 1, ..., n - 1."""
    ci = e.emit("row_arange", mk("tile.ci", [index(0, e.span), index_tuple((1, n), e.span)],
                                 [("dtype", _I32), ("descending", False)], (), e.span))
    return e.reshape("row_numbers", ci, (n, 1))


def _narrow_index(e: _Emitter, flat: Var, data: DType) -> Expr:
    """pto.tscatter / tgather take INT32 indices for 4-byte data, INT16 for narrower data."""
    if data.bits >= 32:
        return flat
    return e.emit("flat_idx_i16", mk("tile.cast", [flat], [("target_type", DType.INT16),
                                                            ("mode", 0)], (), e.span))


def _dim_kwarg(name: str, kwargs: dict[str, Any], rank: int, default: int, span: Span) -> int:
    dim = kwargs.get("dim")
    dim = default if dim is None else int(getattr(dim, "value", dim))
    if not -rank <= dim < rank:
        raise PlError(f"{name}: dim {dim} is outside a rank-{rank} input", span)
    return dim % rank


@converts("tensor.gather")
def _gather(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    """The index form along the last axis: output[i, j] = input[i, index[i, j]] is one
    tile.gather of the flat index i * cols + index[i, j] (leading axes of equal extent are
    flattened into the rows first)."""
    name = "tensor.gather"
    e = _Emitter(span)
    src, ix = e.load("gather_input", args[0]), e.load("gather_index", args[1])
    src_shape, ix_shape = _static(name, src.type, span), _static(name, ix.type, span)
    rank = len(src_shape)
    if rank < 2 or len(ix_shape) != rank or _dim_kwarg(name, kwargs, rank, -1, span) != rank - 1 \
            or (rank > 2 and ix_shape[:-1] != src_shape[:-1]) or ix_shape[0] > src_shape[0]:
        raise PlError(f"{name}: the conversion to tile ops covers a gather along the last axis "
                      f"with an index no larger than the input, got input {list(src_shape)}, "
                      f"index {list(ix_shape)}, dim {kwargs.get('dim')}", span)
    rows, cols, k = math.prod(ix_shape[:-1]), src_shape[-1], ix_shape[-1]
    src2 = e.reshape("gather_input_rows", src, (math.prod(src_shape[:-1]), cols))
    ix2 = e.reshape("gather_index_rows", _as_i32(e, "gather_index_i32", ix), (rows, k))
    flat = _narrow_index(e, _row_major_index(e, _row_numbers(e, rows), ix2, cols),
                         src.type.dtype)  # type: ignore[attr-defined]
    tmp = e.create("gather_tmp", (rows, k), _I32)
    out = e.emit("gather", mk("tile.gather", [src2, flat, tmp], (), (), span))
    return e.stmts, _reshaped(out, ix_shape, span)


def _mask_dtype(data: DType) -> DType:
    """The dtype of a written-mask tile for data of `data`'s width (pto.tscatter matches widths)."""
    return DType.FP32 if data.bits >= 32 else DType.FP16 if data.bits == 16 else DType.INT8


def _preserving_scatter(e: _Emitter, base: Expr, src: Expr,
                        scatter: Callable[[Expr, Expr], Call]) -> Expr:
    """`base` with src scattered into it by `scatter(dst, values)` (tile.scatter at a flat index,
    tile.scatter_mask at a pattern's columns). pto.tscatter does not keep the elements it does
    not write, so the values and a written-mask are each scattered into zeros, and tile.sel
    picks the scattered value where the mask is set, the base elsewhere."""
    t, st = base.type, src.type
    assert isinstance(t, TileType) and isinstance(st, TileType)
    shape, src_shape = _static("scatter", t, e.span), _static("scatter", st, e.span)
    mask_dt = _mask_dtype(t.dtype)
    values = e.emit("scatter_values", scatter(e.full("scatter_zeros", shape, 0, t.dtype), src))
    written = e.emit("scatter_written", scatter(e.full("scatter_mask_zeros", shape, 0, mask_dt),
                                                e.full("scatter_ones", src_shape, 1, mask_dt)))
    pred = e.emit("scatter_pred", mk("tile.cmps", [written, _const(0, mask_dt, e.span)],
                                     [("cmp_type", 1)], (), e.span))
    tmp = e.create("scatter_tmp", (1, 32), DType.UINT8)
    return mk("tile.sel", [pred, values, base, tmp], (), (), e.span)


def _at_flat_index(flat: Expr, span: Span) -> Callable[[Expr, Expr], Call]:
    return lambda dst, values: mk("tile.scatter", [dst, values, flat], (), (), span)


@converts("tensor.scatter")
def _scatter(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    """The index form along the last axis of a rank-2 input: output[i, index[i, j]] = src[i, j],
    through the flat index i * cols + index[i, j] and the preserving scatter."""
    name = "tensor.scatter"
    e = _Emitter(span)
    base, ix, src = (e.load(h, a) for h, a in zip(("scatter_input", "scatter_index", "scatter_src"),
                                                   args[:3], strict=True))
    (m, d), (n, k), (sn, sk) = _rank2(name, base, ix, src, span=span)
    if _dim_kwarg(name, kwargs, 2, -1, span) != 1 or (sn, sk) != (n, k) or n > m:
        raise PlError(f"{name}: the conversion to tile ops covers a scatter along the last axis "
                      f"with src shaped like the index, got input [{m}, {d}], index [{n}, {k}], "
                      f"src [{sn}, {sk}]", span)
    flat = _row_major_index(e, _row_numbers(e, n), _as_i32(e, "scatter_index_i32", ix), d)
    narrow = _narrow_index(e, flat, base.type.dtype)  # type: ignore[attr-defined]
    return e.stmts, _preserving_scatter(e, base, src, _at_flat_index(narrow, span))


@converts("tensor.scatter_update")
def _scatter_update(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    """Whole rows (dim -2) of a rank-2 input: input[index.flat[k], :] = src[k, :], through the
    flat index index.flat[k] * d + c and the preserving scatter."""
    name = "tensor.scatter_update"
    e = _Emitter(span)
    base, ix, src = (e.load(h, a) for h, a in zip(("su_input", "su_index", "su_src"), args[:3],
                                                   strict=True))
    (m, d), (sn, sd) = _rank2(name, base, src, span=span)
    ix_shape = _static(name, ix.type, span)
    n = math.prod(ix_shape)
    if _dim_kwarg(name, kwargs, 2, -2, span) != 0 or sn != n or sd != d:
        raise PlError(f"{name}: the conversion to tile ops covers whole-row updates (dim -2) of a "
                      f"rank-2 input by {n} index rows, got input [{m}, {d}], src [{sn}, {sd}]",
                      span)
    ci = e.emit("su_col", mk("tile.ci", [index(0, span), index_tuple((1, d), span)],
                             [("dtype", _I32), ("descending", False)], (), span))
    zeros = e.full("su_tmpl", (n, d), 0, _I32)
    cols = e.emit("su_col_nd", mk("tile.col_expand", [zeros, ci], (), (), span))
    rows = e.reshape("su_idx_flat", _as_i32(e, "su_idx_i32", ix), (n, 1))
    flat = _narrow_index(e, _row_major_index(e, rows, cols, d),
                         base.type.dtype)  # type: ignore[attr-defined]
    return e.stmts, _preserving_scatter(e, base, src, _at_flat_index(flat, span))


# ---- ops whose tile form needs a scratch tile or a materialized mask ----------------------------

@converts("tensor.gather_mask")
def _gather_mask(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    e = _Emitter(span)
    src = e.load("gather_mask_src", args[0])
    kw = [(k, v) for k, v in kwargs.items() if k in ("mask_pattern", "output_dtype") and v is not None]
    return e.stmts, mk("tile.gather_mask", [src], kw, (), span)


@converts("tensor.xor", tile_op="tile.xor")
@converts("tensor.xors", tile_op="tile.xors")
def _xor(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span, *, tile_op: str) -> Result:
    """pto.txor / txors take a scratch operand shaped like the lhs."""
    e = _Emitter(span)
    lhs = e.load("xor_lhs", args[0])
    t = lhs.type
    assert isinstance(t, TileType)
    tmp = e.create("xor_tmp", _static(tile_op, t, span), t.dtype)
    return e.stmts, mk(tile_op, [lhs, args[1], tmp], (), (), span)


@converts("tensor.cmp")
def _cmp(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    """0/1 in the operands' promoted dtype: tile.cmp (tile rhs) or tile.cmps (scalar rhs) packs
    a predicate mask, tile.sel picks 1 where it is set, else 0."""
    e = _Emitter(span)
    lhs = e.load("cmp_lhs", args[0])
    rhs = e.load("cmp_rhs", args[1])
    scalar = not isinstance(rhs.type, TileType)
    # tensor.cmp shares the type rule of maximum: the result's shape and dtype are maximum's.
    like = mk("tile.maximums" if scalar else "tile.maximum", [lhs, rhs], (), (), span).type
    assert isinstance(like, TileType)
    shape, dtype = _static("tensor.cmp", like, span), like.dtype
    kw = [("cmp_type", kwargs.get("cmp_type", 0) or 0)]
    mask = e.emit("cmp_mask", mk("tile.cmps" if scalar else "tile.cmp", [lhs, rhs], kw, (), span))
    one, zero = e.full("cmp_one", shape, 1, dtype), e.full("cmp_zero", shape, 0, dtype)
    tmp = e.create("cmp_tmp", (1, 32), DType.UINT8)
    return e.stmts, mk("tile.sel", [mask, one, zero, tmp], (), (), span)


@converts("tensor.mrgsort_format2")
def _mrgsort_format2(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    """tile.mrgsort_format2 of the 2-4 sources with a Vec scratch shaped like the merged list
    (the last dims summed)."""
    e = _Emitter(span)
    srcs = [e.load(f"mrgsort_src{i}", a) for i, a in enumerate(args[:4]) if a is not None]
    shapes = [_static("tensor.mrgsort_format2", s.type, span) for s in srcs]
    first = srcs[0].type
    assert isinstance(first, TileType)
    tmp = e.create("mrgsort_tmp", (*shapes[0][:-1], sum(s[-1] for s in shapes)), first.dtype)
    kw = [("exhausted", bool(kwargs.get("exhausted", False)))]
    return e.stmts, mk("tile.mrgsort_format2", [*srcs, tmp], kw, (), span)


@converts("tensor.scatter_mask")
def _scatter_mask(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    """The input's columns into the columns of dst its mask pattern selects, dst's others kept
    (the preserving scatter of tile.scatter_mask)."""
    e = _Emitter(span)
    src, dst = e.load("scatter_mask_input", args[0]), e.load("scatter_mask_dst", args[1])
    _rank2("tensor.scatter_mask", src, dst, span=span)
    kw = [(k, v) for k, v in kwargs.items() if k == "mask_pattern"]
    return e.stmts, _preserving_scatter(
        e, dst, src, lambda d, values: mk("tile.scatter_mask", [d, values], kw, (), span))


def _kw_int(kwargs: dict[str, Any], key: str, default: int) -> int:
    v = kwargs.get(key)
    return default if v is None else int(getattr(v, "value", v))


@converts("tensor.paged_gather")
def _paged_gather(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    """A loop over the gathered rows: row i of the on-chip accumulator ([max_indices, size] in
    `space`, transposed under is_trans) is read by tile.gather_row from the source's physical row
    block_table[idx // block_size] * block_size + idx % block_size, idx = indices[i]."""
    name = "tensor.paged_gather"
    src, indices, table = args[:3]
    st, it, bt = src.type, indices.type, table.type
    if not (isinstance(st, TensorType) and isinstance(it, TensorType) and isinstance(bt, TensorType)):
        raise PlError(f"{name}: src, indices and block_table must be GM tensors", span)
    block, size = _kw_int(kwargs, "block_size", 0), _kw_int(kwargs, "size", 0)
    most, col_off = _kw_int(kwargs, "max_indices", 0), _kw_int(kwargs, "col_off", 0)
    trans = bool(kwargs.get("is_trans", False))
    space = kwargs.get("space") or MemorySpace.Mat
    if min(block, size, most) <= 0 or (trans and space is not MemorySpace.Mat):
        raise PlError(f"{name}: block_size, size and max_indices must be positive, and is_trans "
                      "needs space=Mat", span)
    e = _Emitter(span)
    axis = 0 if it.rank == 1 else 1
    rows = e.emit("pg_rows", mk("tensor.dim", [indices, index(axis, span)], (), (), span))
    acc_shape = (size, most) if trans else (most, size)
    acc0 = e.emit("paged_gather_acc", mk("tile.create", [index_tuple(acc_shape, span)],
                                         [("dtype", st.dtype), ("target_memory", space)], (), span))
    i = Var("pg_i", index(0).type, span=span)
    acc = IterArg("paged_gather_iter", acc0.type, init=acc0, span=span)
    body: list[Stmt] = []

    def read(hint: str, tensor: Expr, rank: int, at: Expr) -> Var:
        where = MakeTuple((at,) if rank == 1 else (index(0, span), at), span=span)
        raw = e.emit(f"{hint}_raw", mk("tensor.read", [tensor, where], (), (), span), body)
        cast = UnaryExpr(UnaryOp.Cast, raw, DType.INDEX, span=span)
        var = Var(hint, cast.type, span=span)
        body.append(AssignStmt(var, cast, span=span))
        return var

    idx = read("pg_idx", indices, it.rank, i)
    blk = read("pg_pblk", table, bt.rank, BinaryExpr(BinaryOp.FloorDiv, idx, index(block, span), DType.INDEX,
                                                     span=span))
    phys = BinaryExpr(BinaryOp.Add, BinaryExpr(BinaryOp.Mul, blk, index(block, span), DType.INDEX, span=span),
                      BinaryExpr(BinaryOp.FloorMod, idx, index(block, span), DType.INDEX, span=span),
                      DType.INDEX, span=span)
    dst_at = (index(0, span), i) if trans else (i, index(0, span))
    row = e.emit("pg_row", mk("tile.gather_row", [
        acc, src, MakeTuple(dst_at, span=span), MakeTuple((phys, index(col_off, span)), span=span),
        index_tuple((1, size), span)], [("transpose", trans)], (), span), body)
    body.append(YieldStmt((row,), span=span))
    result = Var("paged_gather_result", acc0.type, span=span)
    e.stmts.append(ForStmt(i, index(0, span), rows, index(1, span), (acc,), make_body(body),
                           (result,), span=span))
    return e.stmts, result
