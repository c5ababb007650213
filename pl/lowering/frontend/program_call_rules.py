"""The rules of a call of a program function that need no lowering.

Guarantees: each dynamic dim (`pl.dynamic("M")`) of the callee's parameters is bound to one
constant extent per call (two extents: a located error); the call's "dump_vars" attr lists, in
argument order, every argument a `pl.dump_tag` before the call marked or its `dumps=` names;
`pl.no_dep(...)` wrappers are seen through (one tensor argument each, else a located error).
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from pl.ir.expr import (
    ConstInt,
    Expr,
    Var,
)
from pl.ir.types import TensorType, TileType, Type
from pl.language import dsl
from pl.lowering.frontend.context import FnCtx


def bind_dynamic_dims(ctx: FnCtx, node: cst.CSTNode, name: str, pname: str, declared: Type,
                       actual: Type, bound: dict[Var, tuple[int, str]]) -> None:
    """Bind each dynamic dim (`pl.dynamic("M")`) of a callee's parameter to the constant extent
    the argument has there; one dim bound to two extents by one call is a located error."""
    if not (isinstance(declared, TensorType | TileType) and isinstance(actual, TensorType | TileType)
            and len(declared.shape) == len(actual.shape)):
        return
    for d, extent in zip(declared.shape, actual.shape, strict=True):
        if isinstance(d, Var) and isinstance(extent, ConstInt):
            first, where = bound.setdefault(d, (extent.value, pname))
            if first != extent.value:
                raise ctx.error(node, f"Dynamic dimension '{d.name}' of '{name}' has conflicting "
                                      f"bindings: {first} from '{where}' and {extent.value} from "
                                      f"'{pname}'",
                                hint=f"every argument of '{name}' sized by {d.name} must have "
                                     "the same extent there")


def with_dump_vars(ctx: FnCtx, attrs: tuple[tuple[str, Any], ...], args: tuple[Expr, ...]
                    ) -> tuple[tuple[str, Any], ...]:
    """`attrs` whose "dump_vars" lists, in argument order, every argument that a `pl.dump_tag`
    before the call marked or that the call's own dump list (`dumps=`, a printed attr) names."""
    given = dict(attrs).get("dump_vars", ())
    marked = [*ctx.dump_tagged, *(v for v in given if isinstance(v, Var))]
    chosen: list[Var] = []
    for a in args:
        if isinstance(a, Var) and any(a is m for m in marked) and not any(a is c for c in chosen):
            chosen.append(a)
    if not chosen or tuple(chosen) == tuple(given):
        return attrs
    if "dump_vars" in dict(attrs):
        return tuple((k, tuple(chosen) if k == "dump_vars" else v) for k, v in attrs)
    return (*attrs, ("dump_vars", tuple(chosen)))


def no_dep_inner(ctx: FnCtx, node: cst.BaseExpression) -> cst.BaseExpression:
    """The argument inside `pl.no_dep(...)` wrappers (any depth) of a program call's argument,
    or the argument itself when it has none."""
    while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute | cst.Name) \
            and ctx.try_resolve(node.func) is dsl.no_dep:
        if len(node.args) != 1 or node.args[0].keyword is not None or node.args[0].star:
            raise ctx.error(node, "pl.no_dep takes one tensor argument: pl.no_dep(t)")
        node = node.args[0].value
    return node
