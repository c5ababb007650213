"""Static values of `@pl.jit` bodies: what the reference's specialiser substitutes before parsing.

Guarantees: in a program `@pl.jit` specialises (`ProgCtx.jit`), an assignment whose value reads
the shape or dtype of a tensor (`M, N = a.shape`, `K = b.shape[1]`, `rows = a.shape[0] // 2`,
`dt = a.dtype`) and is otherwise made of integer literals, integer arithmetic (+ - * // %),
subscripts, tuples and names already bound so, binds its names to those values, not to kernel
scalars: they are the constants the specialisation fixed (a dynamic dim stays its `pl.dynamic`
Var). Such an assignment emits no statement. Anything else is lowered as in any kernel.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import libcst as cst

from pl.ir.enums import DType
from pl.ir.expr import Var
from pl.lowering.frontend.context import FnCtx, jit_attribute

_NOT = object()

_INT_OPS: Mapping[type, Callable[[int, int], int]] = MappingProxyType({
    cst.Add: operator.add, cst.Subtract: operator.sub, cst.Multiply: operator.mul,
    cst.FloorDivide: operator.floordiv, cst.Modulo: operator.mod,
})


def _static(ctx: FnCtx, node: cst.BaseExpression, reads: list[bool]) -> Any:
    """The static value of `node`, or _NOT; `reads` gets True when a shape / dtype is read."""
    if isinstance(node, cst.Integer):
        return int(node.value, 0)
    if isinstance(node, cst.Name):
        if ctx.lookup_var(node.value) is None and node.value in ctx.statics:
            return ctx.statics[node.value]
        return _NOT
    if isinstance(node, cst.Attribute) and node.attr.value in ("shape", "dtype") \
            and isinstance(node.value, cst.Name):
        base = ctx.lookup_var(node.value.value)
        if base is None:
            return _NOT
        found = jit_attribute(base, node.attr.value, _NOT)
        if found is not _NOT:
            reads.append(True)
        return found
    if isinstance(node, cst.Subscript) and len(node.slice) == 1 \
            and isinstance(node.slice[0].slice, cst.Index):
        seq = _static(ctx, node.value, reads)
        index = _static(ctx, node.slice[0].slice.value, reads)
        if isinstance(seq, tuple) and isinstance(index, int) and -len(seq) <= index < len(seq):
            return seq[index]
        return _NOT
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        value = _static(ctx, node.expression, reads)
        return -value if type(value) is int else _NOT
    if isinstance(node, cst.BinaryOperation):
        fn = _INT_OPS.get(type(node.operator))
        left, right = _static(ctx, node.left, reads), _static(ctx, node.right, reads)
        if fn is None or type(left) is not int or type(right) is not int:
            return _NOT
        if right == 0 and fn in (operator.floordiv, operator.mod):
            return _NOT
        return fn(left, right)
    if isinstance(node, cst.Tuple | cst.List):
        items = []
        for el in node.elements:
            if isinstance(el, cst.StarredElement):
                return _NOT
            items.append(_static(ctx, el.value, reads))
        return _NOT if any(v is _NOT for v in items) else tuple(items)
    return _NOT


def bind_static(ctx: FnCtx, target: cst.BaseAssignTargetExpression,
                value: cst.BaseExpression) -> bool:
    """Bind `target = value` statically when it is such an assignment (see the module); False
    (nothing bound) otherwise."""
    if not ctx.prog.jit:
        return False
    reads: list[bool] = []
    found = _static(ctx, value, reads)
    if found is _NOT or not reads:
        return False
    if isinstance(target, cst.Name):
        names, values = [target.value], [found]
    elif isinstance(target, cst.Tuple | cst.List) and isinstance(found, tuple) \
            and len(target.elements) == len(found) \
            and all(isinstance(e.value, cst.Name) for e in target.elements):
        names = [e.value.value for e in target.elements]  # type: ignore[attr-defined]
        values = list(found)
    else:
        return False
    if not all(isinstance(v, int | DType | Var | tuple) for v in values):
        return False
    for name, v in zip(names, values, strict=True):
        ctx.statics[name] = v
    return True
