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
from typing import Any

from lowering.tensor_to_tile.common import index, index_mul, index_tuple, mk, shape_tuple, zeros
from pl.errors import PlError
from pl.ir.enums import DType, MemorySpace
from pl.ir.expr import Call, Expr, IterArg, MakeTuple, Var
from pl.ir.span import Span
from pl.ir.stmt import AssignStmt, ForStmt, Stmt, YieldStmt, make_body
from pl.ir.types import TensorType, TileType, static_shape
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
