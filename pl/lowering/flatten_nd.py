"""FlattenTileNdTo2D: tiles of rank > 2 become 2-D by merging their leading dims.

Guarantees, for InCore / AIC / AIV functions:
* a static tile shape [d0, ..., dn-2, dn-1] becomes [d0*...*dn-2, dn-1]; the memory space, dtype
  and view (valid shape merged the same way) are kept; 1-D and 2-D tiles are untouched;
* `tile.load` keeps its N-D tensor window arguments and gets the 2-D result type;
  `tile.create` / `tile.full` / `tile.reshape` get the merged shape argument;
  `tile.store` of a flattened tile gets the N-D partition shape as its 4th argument;
* a `tile.col_*` op (reduction or column broadcast) whose tile arguments are all rank > 2 with the
  same trailing dims acts along axis 0, which merging the leading dims would mix with the others:
  each argument is viewed as [d0, d1*...*dn-1] (`tile.reshape`), the op runs on those views and its
  result is reshaped to the merged 2-D shape, so the values stay the N-D op's (a column
  broadcast of one row, [1, ..., 1, C], needs no view; other mixes are a located PlError);
* `tile.assemble` into a rank > 2 target folds its N-D offset into the merged (row, col) space
  (row = ((o0*d1 + o1)*d2 + ...) + o[n-2], col = o[n-1], d the target's dims); it needs a source
  and an offset of the target's rank and a source region that is one contiguous band of merged
  rows (every row dim after the first one that is not 1 is full), else a located PlError;
* `tile.batch_matmul` / `tile.batch_matmul_acc` over several batches becomes one `tile.matmul`
  / `tile.matmul_acc` per result batch (batch dims broadcast) on row slices of the merged
  operands and accumulator, assembled into the merged [B*M, N] Acc result; an operand that is a
  `tile.transpose_view` of several batches is read as its source's page, transposed (such a
  view may feed nothing else);
* `tile.transpose` of the last two axes of a rank > 2 tile transposes each [R, C] page and
  assembles the pages into the merged [B*C, R] result;
* `tile.read` / `write` / `slice`, and a `tile.transpose` that moves a batch axis, with a rank > 2
  operand are rejected with a located PlError (merging the leading dims would compute other
  values);
* every other call is rebuilt from its flattened arguments (its type re-deduced), and every call
  keeps its kwargs and attrs (the private Mat bridge marker survives). Every rewritten variable
  gets the type its rebuilt value deduces, so the output is well-typed;
* loop carries and phis follow their flattened values. The input program is never mutated.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any, Final

from pl.errors import PlError
from pl.ir.enums import MemorySpace
from pl.ir.expr import Call, ConstInt, Expr, MakeTuple, Var
from pl.ir.function import Program
from pl.ir.rewriter import Rewriter, map_incore_functions
from pl.ir.span import Span
from pl.ir.stmt import AssignStmt, Stmt
from pl.ir.types import TileType, Type, static_shape
from pl.lowering.tensor_to_tile.common import (
    base_name,
    index,
    index_add,
    index_mul,
    index_tuple,
    is_op_call,
    mk,
    op_name,
    rededuce_call,
    shape_tuple,
    with_attrs,
)


def flat_shape(shape: tuple[Expr, ...]) -> tuple[Expr, ...] | None:
    """The merged 2-D shape of a static rank>2 shape, else None (nothing to flatten)."""
    if len(shape) <= 2:
        return None  # nothing to merge, static or not
    dims = static_shape(shape)
    if dims is None:
        return None
    return (index(math.prod(dims[:-1])), index(dims[-1]))


def flat_tile_type(t: TileType) -> TileType | None:
    shape = flat_shape(t.shape)
    if shape is None:
        return None
    view = t.view
    if view is not None:
        valid = static_shape(view.valid_shape) if view.valid_shape else None
        dims = static_shape(t.shape)
        merged: tuple[Expr, ...] = ()
        if valid is not None and dims is not None and valid[:-2] == dims[:-2]:
            merged = (index(math.prod(valid[:-1])), index(valid[-1]))
        view = replace(view, valid_shape=merged)
    return TileType(shape, t.dtype, t.memory_space, view, t.memref)


def as_flattened_load(value: Expr, annotated: Type) -> Expr:
    """`value` read back from this pass's printed output: a `tile.load` of an N-D window whose
    annotation is the merged 2-D tile gets that merged result type (as the pass gave it), so the
    printed program parses to itself; any other value is returned as it is."""
    t = value.type
    if not (is_op_call(value, "tile.load") and isinstance(value, Call)
            and isinstance(t, TileType) and isinstance(annotated, TileType)):
        return value
    flat = flat_tile_type(t)
    if flat is None or static_shape(annotated.shape) != static_shape(flat.shape):
        return value
    return Call(value.op, value.args, value.kwargs, value.attrs, flat, span=value.span)


class _Flatten(Rewriter):
    def __init__(self) -> None:
        super().__init__(rededuce_call)
        # id of a Var bound to `tile.transpose_view` of a rank > 2 tile of several batches -> the
        # viewed tile: only a batched matmul may read such a view (one page at a time).
        self.batched_views: dict[int, Expr] = {}

    def rebuild_call(self, e: Call, args: tuple[Expr, ...],
                     kwargs: tuple[tuple[str, Any], ...]) -> Call:
        _check_flattenable(e)  # (an EvalStmt's or a nested call: assign checks its own first)
        self.check_view_uses(e)
        if e.op.name == "tile.store" and len(args) == 3:
            orig = e.args[0].type
            if isinstance(orig, TileType) and flat_shape(orig.shape) is not None:
                args = args + (shape_tuple(orig.shape),)
        return super().rebuild_call(e, args, kwargs)

    def assign(self, s: AssignStmt) -> list[Stmt]:
        call = s.value
        if isinstance(call, Call):
            # The op's name is read once: each rewrite below applies to one op (or family) only.
            name = op_name(call)
            if name in _NO_ND:
                _check_flattenable(call)
            self.check_view_uses(call)
            if name == "tile.transpose_view" and _batches(call.args[0]) > 1:
                self.batched_views[id(s.var)] = call.args[0]
            if name in _BATCHED and max(_batches(a) for a in call.args) > 1:
                return self.batch_matmul(s, call)
            if name == "tile.transpose" and _swaps_last_two(call):
                return self.nd_transpose(s, call)
            if name.startswith("tile.col_") and _acts_along_axis0(call):
                return self.axis0_op(s, call)
            if name == "tile.assemble" and _is_nd_assemble(call):
                return [self.pass_through(s, self.nd_assemble(call))]
        value = self.expr(s.value)
        t = value.type
        if isinstance(value, Call) and isinstance(t, TileType):
            flat = flat_tile_type(t)
            if flat is not None:
                value = self.flatten_producer(value, flat)
        return [self.pass_through(s, value)]

    def axis0_op(self, s: AssignStmt, call: Call) -> list[Stmt]:
        """`v = tile.col_*(a, ...)` on N-D tiles: the op on [d0, rest] views of the merged
        arguments, then its [1 or d0, rest] result reshaped to the merged result shape."""
        out: list[Stmt] = []
        name = base_name(s.var.name)
        args: list[Expr] = []
        for a in call.args:
            flat = self.expr(a)
            t, orig = flat.type, a.type
            if isinstance(t, TileType) and isinstance(orig, TileType):
                d0 = _numel(orig) // _numel_after_axis0(orig)
                flat = _assign(out, f"{name}__rows", mk("tile.reshape", [
                    flat, index_tuple([d0, _numel(t) // d0], call.span)], (), (), call.span))
            args.append(flat)
        op = with_attrs(mk(call.op.name, args, call.kwargs, (), call.span), call.attrs)
        result = _assign(out, f"{name}__rows", op)
        orig = call.type
        assert isinstance(orig, TileType)
        merged = flat_shape(orig.shape)
        assert merged is not None
        dims = [d.value for d in merged if isinstance(d, ConstInt)]
        value = mk("tile.reshape", [result, index_tuple(dims, call.span)], (), (), call.span)
        out.append(self.pass_through(s, value))
        return out

    def check_view_uses(self, call: Call) -> None:
        """A batched transpose_view flattens to its pages side by side ([K, B*N]): only a batched
        matmul, which reads it page by page, may use it."""
        if not self.batched_views or is_op_call(call, *_BATCHED):
            return  # no batched view to misuse, or its one allowed reader
        for a in call.args:
            if id(a) in self.batched_views:
                raise PlError(f"flatten_tile_nd_to_2d: the transposed view '{a.name}' "  # type: ignore[attr-defined]
                              f"of several batches can only feed a batched matmul here, not "
                              f"{call.op.name}", call.span)

    def batch_matmul(self, s: AssignStmt, call: Call) -> list[Stmt]:
        """`c = tile.batch_matmul(a, b)` (or `_acc(acc, a, b)`) over several batches: one 2-D
        `tile.matmul` (`tile.matmul_acc` on the accumulator's page) per batch of the (broadcast)
        result, on row slices of the merged operands (an operand that is a batched
        transpose_view: its source's page, transposed), assembled into the merged
        [batches*M, N] Acc result."""
        out: list[Stmt] = []
        name = base_name(s.var.name)
        result = call.type
        assert isinstance(result, TileType)
        rdims = static_shape(result.shape)
        assert rdims is not None
        m, n = rdims[-2], rdims[-1]
        batches = rdims[:-2]
        acc: Expr = _assign(out, f"{name}__acc", mk("tile.create", [
            index_tuple([math.prod(batches) * m, n], call.span)],
            [("dtype", result.dtype), ("target_memory", MemorySpace.Acc)], (), call.span))
        for b, where in enumerate(itertools.product(*(range(d) for d in batches))):
            pages = [self.page(out, name, a, where, call.span) for a in call.args]
            mm = _assign(out, f"{name}__mm", mk(_BATCHED[call.op.name], pages, (), (), call.span))
            placed = mk("tile.assemble", [acc, mm, index_tuple([b * m, 0], call.span)], (), (),
                        call.span)
            if b == math.prod(batches) - 1:
                out.append(self.pass_through(s, with_attrs(placed, call.attrs)))
            else:
                acc = _assign(out, f"{name}__acc", placed)
        return out

    def nd_transpose(self, s: AssignStmt, call: Call) -> list[Stmt]:
        """`t = tile.transpose(x, -2, -1)` on a rank > 2 tile: each [R, C] page of the merged x
        transposed on its own and assembled into the merged [B*C, R] result."""
        out: list[Stmt] = []
        name = base_name(s.var.name)
        source = call.args[0]
        t = source.type
        assert isinstance(t, TileType)
        dims = static_shape(t.shape)
        assert dims is not None
        rows, cols = dims[-2], dims[-1]
        batches = math.prod(dims[:-2])
        flat = self.expr(source)
        result: Expr = _assign(out, f"{name}__all", mk("tile.create", [
            index_tuple([batches * cols, rows], call.span)],
            [("dtype", t.dtype), ("target_memory", MemorySpace.Vec)], (), call.span))
        for b in range(batches):
            page = _assign(out, f"{name}__page", mk("tile.slice", [
                flat, index_tuple([rows, cols], call.span), index_tuple([b * rows, 0], call.span)],
                (), (), call.span))
            turned = _assign(out, f"{name}__page", mk("tile.transpose", [
                page, index(0, call.span), index(1, call.span)], call.kwargs, (), call.span))
            placed = mk("tile.assemble", [result, turned, index_tuple([b * cols, 0], call.span)],
                        (), (), call.span)
            if b == batches - 1:
                out.append(self.pass_through(s, with_attrs(placed, call.attrs)))
            else:
                result = _assign(out, f"{name}__all", placed)
        return out

    def page(self, out: list[Stmt], name: str, operand: Expr, where: tuple[int, ...],
             span: Span) -> Expr:
        """The 2-D page of a batched matmul operand for the result batch `where` (broadcast)."""
        viewed = self.batched_views.get(id(operand))
        source = viewed if viewed is not None else operand
        t = source.type
        assert isinstance(t, TileType)
        dims = static_shape(t.shape)
        assert dims is not None
        if len(dims) <= 2:
            page: Expr = self.expr(source)
        else:
            rows, cols = dims[-2], dims[-1]
            index = _page_index(dims[:-2], where)
            page = _assign(out, f"{name}__page", mk("tile.slice", [
                self.expr(source), index_tuple([rows, cols], span),
                index_tuple([index * rows, 0], span)], (), (), span))
        if viewed is not None:
            page = _assign(out, f"{name}__page", mk("tile.transpose_view", [page], (), (), span))
        return page

    def nd_assemble(self, call: Call) -> Call:
        target, source, offsets = call.args
        tt, st = target.type, source.type
        assert isinstance(tt, TileType) and isinstance(st, TileType)
        tdims, sdims = static_shape(tt.shape), static_shape(st.shape)
        assert tdims is not None
        if not isinstance(offsets, MakeTuple) or len(offsets.elements) != len(tdims) \
                or sdims is None or len(sdims) != len(tdims):
            raise PlError(f"flatten_tile_nd_to_2d: tile.assemble into a {list(tdims)} tile needs "
                          f"a source and a literal offset of rank {len(tdims)}", call.span)
        if not _row_band(sdims, tdims):
            raise PlError(f"flatten_tile_nd_to_2d: tile.assemble writes a {list(sdims)} region "
                          f"into a {list(tdims)} tile, which is not one contiguous band of rows "
                          "once both are flattened to 2-D; assemble one page at a time",
                          call.span)
        elems = [self.expr(e) for e in offsets.elements]
        row = elems[0]
        for o, d in zip(elems[1:-1], tdims[1:-1], strict=True):
            row = index_add(index_mul(row, d), o)
        folded = MakeTuple((row, elems[-1]), span=offsets.span)
        new = mk("tile.assemble", [self.expr(target), self.expr(source), folded], call.kwargs,
                 (), call.span)
        return with_attrs(new, call.attrs)

    def flatten_producer(self, call: Call, flat: TileType) -> Call:
        if is_op_call(call, "tile.load"):
            return Call(call.op, call.args, call.kwargs, call.attrs, flat, span=call.span)
        if is_op_call(call, "tile.create", "tile.full", "tile.reshape"):
            pos = 1 if call.op.name == "tile.reshape" else 0
            dims = [d.value for d in flat.shape if isinstance(d, ConstInt)]
            args = list(call.args)
            args[pos] = index_tuple(dims, call.span)
            new = mk(call.op.name, args, call.kwargs, (), call.span)
            return with_attrs(new, call.attrs)
        return Call(call.op, call.args, call.kwargs, call.attrs, flat, span=call.span)


def _swaps_last_two(call: Call) -> bool:
    """A `tile.transpose` of a static rank > 2 tile that swaps its last two axes."""
    if not is_op_call(call, "tile.transpose") or len(call.args) != 3:
        return False
    t = call.args[0].type
    dims = static_shape(t.shape) if isinstance(t, TileType) else None
    axes = [a.value for a in call.args[1:] if isinstance(a, ConstInt)]
    if dims is None or len(dims) <= 2 or len(axes) != 2:
        return False
    rank = len(dims)
    return sorted(a % rank for a in axes) == [rank - 2, rank - 1]


def _batches(e: Expr) -> int:
    """How many 2-D pages a static tile of rank > 2 holds (1 for any other value)."""
    t = e.type
    dims = static_shape(t.shape) if isinstance(t, TileType) else None
    return math.prod(dims[:-2]) if dims is not None and len(dims) > 2 else 1


def _page_index(batch: tuple[int, ...], where: tuple[int, ...]) -> int:
    """The row-major page of an operand with batch dims `batch` that the result batch `where`
    reads under broadcasting (trailing dims aligned; a dim of 1 is read at 0)."""
    index = 0
    for k, d in enumerate(batch):
        at = where[len(where) - len(batch) + k]
        index = index * d + (0 if d == 1 else at)
    return index


def _numel(t: TileType) -> int:
    dims = static_shape(t.shape)
    assert dims is not None  # only static N-D tiles are flattened
    return math.prod(dims)


def _assign(out: list[Stmt], name: str, value: Call) -> Var:
    var = Var(name, value.type, span=value.span)
    out.append(AssignStmt(var, value, span=value.span))
    return var


def _is_nd_assemble(call: Call) -> bool:
    t = call.args[0].type if is_op_call(call, "tile.assemble") and len(call.args) == 3 else None
    return isinstance(t, TileType) and flat_shape(t.shape) is not None


def _row_band(src: tuple[int, ...], dst: tuple[int, ...]) -> bool:
    """Whether a `src`-shaped region of a `dst` tile (same rank) covers one contiguous range
    of merged rows: over the row dims (all but the last), every dim after the first one that
    is not 1 is full."""
    rows = list(zip(src[:-1], dst[:-1], strict=True))
    first = next((k for k, (s, _) in enumerate(rows) if s != 1), len(rows))
    return all(s == d for s, d in rows[first + 1:])


def _numel_after_axis0(t: TileType) -> int:
    dims = static_shape(t.shape)
    assert dims is not None
    return math.prod(dims[1:])


def _acts_along_axis0(call: Call) -> bool:
    """Whether `call` is a `tile.col_*` op on a rank > 2 input whose tile arguments are all
    static rank > 2 tiles with the same trailing dims (each viewed as [its d0, rest] alike).
    A column broadcast of one row (a [1, ..., 1, C] tile) over the N-D input broadcasts over the
    merged rows just as well (False: the generic path); any other mix is a located PlError."""
    if not call.op.name.startswith("tile.col_") or not call.args:
        return False
    dims = [static_shape(a.type.shape) for a in call.args if isinstance(a.type, TileType)]
    first = dims[0] if dims else None
    if first is None or len(first) <= 2:
        return False
    if all(d is not None and len(d) > 2 and d[1:] == first[1:] for d in dims):
        return True
    one_row = all(d is not None and math.prod(d[:-1]) == 1 and d[-1] == first[-1]
                  for d in dims[1:])
    if call.op.name.startswith("tile.col_expand") and one_row:
        return False
    raise PlError(f"flatten_tile_nd_to_2d: {call.op.name} over tiles of shapes "
                  f"{', '.join(str(list(d)) if d else '?' for d in dims)} cannot be flattened to "
                  "2-D: give every tile argument the input's rank and trailing dims", call.span)


# Ops whose meaning on a rank > 2 tile needs its N-D structure, which merging the leading dims
# loses: they are rejected rather than rewritten into something that computes other values.
_NO_ND = frozenset({"tile.read", "tile.write", "tile.slice", "tile.transpose"})
# batched matmul -> the 2-D op of each batch
_BATCHED: Final[Mapping[str, str]] = MappingProxyType(
    {"tile.batch_matmul": "tile.matmul", "tile.batch_matmul_acc": "tile.matmul_acc"})


def _check_flattenable(call: Call) -> None:
    """A located PlError for a call whose N-D operand this pass cannot flatten faithfully."""
    if not is_op_call(call, *_NO_ND) or _swaps_last_two(call):
        return
    for a in call.args:
        t = a.type
        dims = static_shape(t.shape) if isinstance(t, TileType) else None
        if dims is not None and len(dims) > 2:
            what = "moving a batch axis " if call.op.name == "tile.transpose" else ""
            raise PlError(f"flatten_tile_nd_to_2d: {call.op.name} {what}on a tile of shape "
                          f"{list(dims)} (rank > 2) is not supported; reshape it to 2-D first "
                          "(pl.tile.reshape) or work on one 2-D page at a time", call.span)


def flatten_tile_nd_to_2d(program: Program) -> Program:
    """Merge the leading dims of every rank>2 tile of InCore/AIC/AIV functions."""
    return map_incore_functions(program, lambda f: _Flatten().function(f))
