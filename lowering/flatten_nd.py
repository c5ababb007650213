"""FlattenTileNdTo2D: tiles of rank > 2 become 2-D by merging their leading dims.

Guarantees, for InCore / AIC / AIV functions:
* a static tile shape [d0, ..., dn-2, dn-1] becomes [d0*...*dn-2, dn-1]; the memory space, dtype
  and view (valid shape merged the same way) are kept; 1-D and 2-D tiles are untouched;
* `tile.load` keeps its N-D tensor window arguments and gets the 2-D result type;
  `tile.create` / `tile.full` / `tile.reshape` get the merged shape argument;
  `tile.store` of a flattened tile gets the N-D partition shape as its 4th argument;
* every other call is rebuilt from its flattened arguments (its type re-deduced), and every call
  keeps its kwargs and attrs (the private Mat bridge marker survives);
* loop carries and phis follow their flattened values. The input program is never mutated.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from lowering.tensor_to_tile_common import (
    Rewriter,
    index,
    index_tuple,
    is_op_call,
    mk,
    same_items,
    shape_tuple,
    with_attrs,
)
from pl.ir.expr import Call, ConstInt, Expr
from pl.ir.function import Program
from pl.ir.stmt import AssignStmt, Stmt
from pl.ir.types import TileType, static_shape


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


class _Flatten(Rewriter):
    def rebuild_call(self, e: Call, args: tuple[Expr, ...],
                     kwargs: tuple[tuple[str, Any], ...]) -> Call:
        if e.op.name == "tile.store" and len(args) == 3:
            orig = e.args[0].type
            if isinstance(orig, TileType) and flat_shape(orig.shape) is not None:
                args = args + (shape_tuple(orig.shape),)
        return super().rebuild_call(e, args, kwargs)

    def assign(self, s: AssignStmt) -> list[Stmt]:
        value = self.expr(s.value)
        t = value.type
        if isinstance(value, Call) and isinstance(t, TileType):
            flat = flat_tile_type(t)
            if flat is not None:
                value = self.flatten_producer(value, flat)
        return [self.pass_through(s, value)]

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


def flatten_tile_nd_to_2d(program: Program) -> Program:
    """Merge the leading dims of every rank>2 tile of InCore/AIC/AIV functions."""
    funcs = tuple(_Flatten().function(f) if f.func_type.is_incore_kind() else f
                  for f in program.functions)
    if same_items(funcs, program.functions):
        return program  # no function changed
    return Program(program.name, funcs, span=program.span)
