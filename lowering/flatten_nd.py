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
  result is reshaped to the merged 2-D shape, so the values stay the N-D op's;
* `tile.batch_matmul[_acc]` with a rank > 2 operand that has more than one batch is rejected with
  a located PlError (merging its batches would multiply across them);
* every other call is rebuilt from its flattened arguments (its type re-deduced), and every call
  keeps its kwargs and attrs (the private Mat bridge marker survives). Every rewritten variable
  gets the type its rebuilt value deduces, so the output is well-typed;
* loop carries and phis follow their flattened values. The input program is never mutated.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from lowering.tensor_to_tile_common import (
    Rewriter,
    base_name,
    index,
    index_tuple,
    is_op_call,
    mk,
    same_items,
    shape_tuple,
    with_attrs,
)
from pl.errors import PlError
from pl.ir.expr import Call, ConstInt, Expr, Var
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
        if isinstance(s.value, Call):
            _check_batch_matmul(s.value)
            if _acts_along_axis0(s.value):
                return self.axis0_op(s, s.value)
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


def _numel(t: TileType) -> int:
    dims = static_shape(t.shape)
    assert dims is not None  # only static N-D tiles are flattened
    return math.prod(dims)


def _assign(out: list[Stmt], name: str, value: Call) -> Var:
    var = Var(name, value.type, span=value.span)
    out.append(AssignStmt(var, value, span=value.span))
    return var


def _numel_after_axis0(t: TileType) -> int:
    dims = static_shape(t.shape)
    assert dims is not None
    return math.prod(dims[1:])


def _acts_along_axis0(call: Call) -> bool:
    """Whether `call` is a `tile.col_*` op whose tile arguments are all static rank > 2 tiles
    with the same trailing dims (so each is viewed as [its d0, rest] alike)."""
    if not call.op.name.startswith("tile.col_"):
        return False
    dims = [static_shape(a.type.shape) for a in call.args if isinstance(a.type, TileType)]
    if not dims or any(d is None or len(d) <= 2 for d in dims):
        return False
    first = dims[0]
    assert first is not None
    return all(d is not None and d[1:] == first[1:] for d in dims)


def _check_batch_matmul(call: Call) -> None:
    """Merging the batch dims of a batched matmul's operand would multiply across batches."""
    if not is_op_call(call, "tile.batch_matmul", "tile.batch_matmul_acc"):
        return
    for a in call.args:
        t = a.type
        dims = static_shape(t.shape) if isinstance(t, TileType) else None
        if dims is not None and len(dims) > 2 and math.prod(dims[:-2]) > 1:
            raise PlError(f"flatten_tile_nd_to_2d: {call.op.name} on a tile of shape "
                          f"{list(dims)} (more than one batch) cannot be flattened to 2-D yet; "
                          "write one pl.matmul per batch", call.span)


def flatten_tile_nd_to_2d(program: Program) -> Program:
    """Merge the leading dims of every rank>2 tile of InCore/AIC/AIV functions."""
    funcs = tuple(_Flatten().function(f) if f.func_type.is_incore_kind() else f
                  for f in program.functions)
    if same_items(funcs, program.functions):
        return program  # no function changed
    return Program(program.name, funcs, span=program.span)
