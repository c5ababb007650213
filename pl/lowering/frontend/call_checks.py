"""Checks of a built op call against what the user wrote, located at the argument at fault.

Guarantees, for every op call the frontend builds from the user's text:
- every static extent of the result is positive, and of its valid shape >= 0 (a zero or negative
  dim has no tile or tensor to stand for, a negative valid extent no region, and the annotation
  the printer would write for either does not read back);
- an offset / index list has one entry per axis of the tensor or tile it addresses (`_INDEXES`):
  a shorter or longer list leaves open which axes it means, and the tile form of the op would
  read it differently from the tensor form.
Each error points at the argument it is about (the user's list), else at the call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final, NoReturn

import libcst as cst

from pl.ir.expr import Call, ConstInt, Expr, MakeTuple, Op
from pl.ir.types import TensorType, TileType
from pl.lowering.frontend.context import FnCtx
from pl.lowering.frontend.types import type_text
from pl.ops.registry import get_op

# IR op -> (positional slot of an offset / index list, slot of the operand it addresses).
_INDEXES: Final[Mapping[str, tuple[tuple[int, int], ...]]] = MappingProxyType({
    "tensor.assemble": ((2, 0),),
    "tile.assemble": ((2, 0),),
    "tile.store": ((1, 2),),
    "tensor.read": ((1, 0),),
    "tile.read": ((1, 0),),
    "tensor.write": ((1, 0),),
    "tile.write": ((1, 0),),
})


def check_op_call(ctx: FnCtx, node: cst.Call, spelling: str, built: Expr,
                  pos: Sequence[cst.Arg], kw: Sequence[cst.Arg], args: Sequence[Any],
                  kwargs: Mapping[str, Any]) -> None:
    """Raise a located PlError when `built` (the IR of `node`, from the lowered positional `args`
    of `pos` and keyword `kwargs` of `kw`) breaks a guarantee above. Runs for every op call, so
    it only reads the result until something is wrong."""
    t = built.type
    if isinstance(t, TensorType | TileType):
        for dims, least in ((t.shape, 1), (t.view.valid_shape if t.view else (), 0)):
            for d in dims:
                if isinstance(d, ConstInt) and d.value < least:
                    _bad_extent(ctx, node, spelling, t, dims, least, [*pos, *kw],
                                [*args, *kwargs.values()])
    if type(built) is Call and type(built.op) is Op:
        indexes = _INDEXES.get(built.op.name)
        if indexes is not None:
            _check_index_lengths(ctx, node, spelling, built, indexes, pos, kw)


def _bad_extent(ctx: FnCtx, node: cst.Call, spelling: str, t: TensorType | TileType,
                shape: tuple[Expr, ...], least: int, arg_nodes: Sequence[cst.Arg],
                values: Sequence[Any]) -> NoReturn:
    """The error for `shape` (the result's shape, or its valid shape when `least` is 0)."""
    bad = [d for d in shape if isinstance(d, ConstInt) and d.value < least]
    where: cst.CSTNode = node
    # The culprit is the list the shape came from: the argument that spells that shape (by
    # value: a result type may be shared with an earlier, equal call).
    dims = [d.value if isinstance(d, ConstInt) else None for d in shape]
    for a, v in zip(arg_nodes, values, strict=False):
        if isinstance(v, MakeTuple) and len(v.elements) == len(dims) and all(
                want is None or (isinstance(e, ConstInt) and e.value == want)
                for e, want in zip(v.elements, dims, strict=True)):
            where = a.value
            break
    wanted = "every extent must be positive" if least else "every valid extent must be >= 0"
    raise ctx.error(where, f"{spelling}: {wanted}, got {bad[0].value} "
                           f"(the result would be {type_text(t)})")


def _check_index_lengths(ctx: FnCtx, node: cst.Call, spelling: str, built: Call,
                         indexes: tuple[tuple[int, int], ...], pos: Sequence[cst.Arg],
                         kw: Sequence[cst.Arg]) -> None:
    for slot, of in indexes:
        if slot >= len(built.args) or of >= len(built.args):
            continue
        lst, target = built.args[slot], built.args[of].type
        if not isinstance(lst, MakeTuple) or not isinstance(target, TensorType | TileType):
            continue
        if len(lst.elements) == len(target.shape):
            continue
        op = get_op(built.op.name)
        name = op.args[slot].name if op is not None and slot < len(op.args) else f"argument {slot}"
        where = _arg_node(node, pos, kw, slot, name)
        raise ctx.error(where, f"{spelling}: {name} has {len(lst.elements)} entries but "
                               f"{op.args[of].name if op is not None else 'its operand'} has rank "
                               f"{len(target.shape)} ({type_text(target)})",
                        hint="give one entry per axis")


def _arg_node(node: cst.Call, pos: Sequence[cst.Arg], kw: Sequence[cst.Arg], slot: int,
              name: str) -> cst.CSTNode:
    if slot < len(pos):
        return pos[slot].value
    for a in kw:
        if a.keyword is not None and a.keyword.value == name:
            return a.value
    return node
