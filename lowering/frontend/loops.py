"""Compound statements: `for` over pl.range/parallel/unroll/pipeline/while_, `while`, dispatch.

Guarantees: a loop with `init_values=` gets one IterArg per name (visible only in the body) and
return vars named by the assignment-form `pl.yield_` (or `<iter>_out` when the body yields
nothing); a loop without init_values has no iter args, and its body bindings stay visible after
it (non-SSA; SSA conversion adds the carried values). Any other iterator is a located error.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

import libcst as cst

from lowering.frontend.context import FnCtx, YieldSite
from lowering.frontend.exprs import lower_expr, lower_value
from lowering.frontend.stmts import dsl_callee, lower_block, lower_if, lower_with, suite
from lowering.frontend.types import type_text
from pl import dsl
from pl.ir.enums import DType, ForKind
from pl.ir.expr import ConstInt, Expr, IterArg, Var
from pl.ir.stmt import ForStmt, Stmt, WhileStmt, make_body
from pl.ir.types import ScalarType

_KINDS: Final[Mapping[int, ForKind]] = MappingProxyType({
    id(dsl.range): ForKind.Sequential, id(dsl.parallel): ForKind.Parallel,
    id(dsl.unroll): ForKind.Unroll, id(dsl.pipeline): ForKind.Pipeline})
_ITER_MSG = ("For loop must use pl.range(), pl.parallel(), pl.unroll(), pl.pipeline(), "
             "pl.while_(), pl.spmd(), or pl.split_aiv()")
_BARE_YIELD = ("Loop with init_values requires an assignment-form pl.yield_(...) — the LHS "
               "supplies the post-loop binding name. Bare pl.yield_(...) is rejected here.")


def lower_compound(ctx: FnCtx, node: cst.CSTNode) -> list[Stmt]:
    match node:
        case cst.If():
            return lower_if(ctx, node)
        case cst.For():
            return lower_for(ctx, node)
        case cst.While():
            return lower_while(ctx, node)
        case cst.With():
            return lower_with(ctx, node)
        case _:
            raise ctx.error(node, f"Unsupported statement type: {type(node).__name__}")


def _bool_cond(ctx: FnCtx, node: cst.BaseExpression) -> Expr:
    cond = lower_expr(ctx, node)
    if cond.type != ScalarType(DType.BOOL):
        raise ctx.error(node, "Loop condition must be a Bool-typed scalar expression, got "
                              f"{type_text(cond.type)}")
    return cond


def _inits(ctx: FnCtx, node: cst.BaseExpression) -> list[Expr]:
    if not isinstance(node, cst.List | cst.Tuple):
        raise ctx.error(node, "init_values must be a list or tuple literal, e.g. init_values=(x,)")
    return [lower_expr(ctx, el.value) for el in node.elements]


def _carried_names(ctx: FnCtx, node: cst.BaseExpression) -> list[cst.Name]:
    if not isinstance(node, cst.Tuple | cst.List) or not all(
            isinstance(el.value, cst.Name) for el in node.elements):
        raise ctx.error(node, "Loop-carried names must be a tuple of names, e.g. (acc,)")
    return [el.value for el in node.elements]  # type: ignore[misc]


def _body(ctx: FnCtx, kind: str, node: cst.For | cst.While, binds: list[Var],
          skip_first: bool = False) -> tuple[list[Stmt], dict[str, Var], list[YieldSite]]:
    ctx.push()
    for v in binds:
        ctx.bind(v.name, v)
    ctx.loops.append((kind, node))
    ctx.yields.append([])
    stmts = list(suite(node.body))
    body = lower_block(ctx, stmts[1:] if skip_first else stmts)
    sites = ctx.yields.pop()
    ctx.loops.pop()
    names = ctx.pop()
    for v in binds:
        if names.get(v.name) is v:
            del names[v.name]
    return body, names, sites


def _return_vars(ctx: FnCtx, iter_args: list[IterArg], sites: list[YieldSite]) -> tuple[Var, ...]:
    for s in sites:
        if s.names is None:
            raise ctx.error(s.node, _BARE_YIELD)
    if not sites:
        return tuple(Var(f"{ia.name}_out", ia.type) for ia in iter_args)
    site = sites[-1]
    assert site.names is not None
    if len(site.names) != len(iter_args):
        raise ctx.error(site.node, f"pl.yield_ gives {len(site.names)} value(s) but the loop "
                                   f"carries {len(iter_args)} iter_args")
    return tuple(Var(n, site.types[i] or iter_args[i].type) if i < len(site.types) else
                 Var(n, iter_args[i].type) for i, n in enumerate(site.names))


def lower_for(ctx: FnCtx, node: cst.For) -> list[Stmt]:
    if node.orelse is not None:
        raise ctx.error(node.orelse, "Unsupported statement type: For-else")
    obj = dsl_callee(ctx, node.iter)
    if obj is dsl.while_:
        return _while_for(ctx, node)
    if id(obj) not in _KINDS or _KINDS.get(id(obj)) is None or not isinstance(node.iter, cst.Call):
        raise ctx.error(node.iter, _ITER_MSG)
    kind = _KINDS[id(obj)]
    call = node.iter
    bounds = [a for a in call.args if a.keyword is None]
    kw = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if not 1 <= len(bounds) <= 3:
        raise ctx.error(call, "pl.range takes 1 to 3 positional arguments (start, stop, step)")
    vals = [lower_expr(ctx, a.value) for a in bounds]
    one, zero = ConstInt(1, DType.INDEX), ConstInt(0, DType.INDEX)
    start, stop, step = (zero, vals[0], one) if len(vals) == 1 else (
        vals[0], vals[1], vals[2] if len(vals) == 3 else one)
    if kind is ForKind.Unroll and not all(isinstance(v, ConstInt) for v in (start, stop, step)):
        raise ctx.error(call, "pl.unroll needs integer-literal bounds")
    if isinstance(step, ConstInt) and step.value == 0:
        raise ctx.error(call, "Loop step must not be zero")
    attrs: list[tuple[str, Any]] = []
    inits: list[Expr] | None = None
    for key, val in kw.items():
        if key == "init_values":
            if kind is ForKind.Unroll:
                raise ctx.error(val, "pl.unroll does not take init_values")
            inits = _inits(ctx, val)
        elif key == "stage" and kind is ForKind.Pipeline:
            attrs.append(("pipeline_stages", getattr(lower_expr(ctx, val), "value", None)))
        elif key == "attrs" and isinstance(val, cst.Dict):
            for el in val.elements:
                assert isinstance(el, cst.DictElement)
                v = lower_value(ctx, el.value)
                attrs.append((str(lower_value(ctx, el.key)), getattr(v, "value", v)))
        else:
            raise ctx.error(val, f"Unknown loop argument '{key}'")
    target = node.target
    if inits is None:
        if not isinstance(target, cst.Name):
            raise ctx.error(target, "A loop without init_values takes a single loop variable")
        loop_name = target
        carried: list[cst.Name] = []
    else:
        if not (isinstance(target, cst.Tuple) and len(target.elements) == 2
                and isinstance(target.elements[0].value, cst.Name)):
            raise ctx.error(target, "With init_values the loop target must be `i, (a, b, ...)`")
        loop_name = target.elements[0].value
        carried = _carried_names(ctx, target.elements[1].value)
        if len(carried) != len(inits):
            raise ctx.error(target.elements[1].value, f"Mismatch: {len(carried)} iter_args but "
                                                      f"{len(inits)} init_values")
    span = ctx.src.stmt_span(node)
    dt = stop.type.dtype if isinstance(stop.type, ScalarType) and stop.type.dtype.is_int() \
        and not isinstance(stop, ConstInt) else DType.INDEX
    loop_var = Var(loop_name.value, ScalarType(dt if dt != DType.INT64 else DType.INDEX), span=span)
    iter_args = [IterArg(n.value, e.type, init=e, span=span) for n, e in zip(carried, inits or [],
                                                                           strict=True)]
    body, names, sites = _body(ctx, kind.name, node, [loop_var, *iter_args])
    rvs: tuple[Var, ...] = ()
    if inits is not None:
        rvs = _return_vars(ctx, iter_args, sites)
        for v in rvs:
            ctx.bind(v.name, v)
    else:
        if sites:
            raise ctx.error(sites[0].node, "pl.yield_ in a loop needs init_values=(...) on the loop")
        ctx.leak(names)
    return [ForStmt(loop_var, start, stop, step, tuple(iter_args), make_body(body), rvs, kind,
                    tuple(attrs), span=span)]


def _while_for(ctx: FnCtx, node: cst.For) -> list[Stmt]:
    call = node.iter
    assert isinstance(call, cst.Call)
    kw = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if "init_values" not in kw or len(kw) != len(call.args):
        raise ctx.error(call, "pl.while_ takes only init_values=(...)")
    inits = _inits(ctx, kw["init_values"])
    carried = _carried_names(ctx, node.target)
    if len(carried) != len(inits):
        raise ctx.error(node.target, f"Mismatch: {len(carried)} iter_args but {len(inits)} "
                                     "init_values")
    span = ctx.src.stmt_span(node)
    iter_args = [IterArg(n.value, e.type, init=e, span=span) for n, e in zip(carried, inits,
                                                                           strict=True)]
    stmts = list(suite(node.body))
    first = stmts[0] if stmts else None
    cond_call = first.body[0].value if isinstance(first, cst.SimpleStatementLine) and isinstance(
        first.body[0], cst.Expr) else None
    if cond_call is None or dsl_callee(ctx, cond_call) is not dsl.cond:
        raise ctx.error(first or node, "The first statement of a pl.while_ loop must be "
                                       "pl.cond(<condition>)")
    assert isinstance(cond_call, cst.Call)
    ctx.push()
    for ia in iter_args:
        ctx.bind(ia.name, ia)
    cond = _bool_cond(ctx, cond_call.args[0].value)
    ctx.pop()
    body, _names, sites = _body(ctx, "While", node, list(iter_args), skip_first=True)
    rvs = _return_vars(ctx, iter_args, sites)
    for v in rvs:
        ctx.bind(v.name, v)
    return [WhileStmt(tuple(iter_args), cond, make_body(body), rvs, span=span)]


def lower_while(ctx: FnCtx, node: cst.While) -> list[Stmt]:
    if node.orelse is not None:
        raise ctx.error(node.orelse, "Unsupported statement type: While-else")
    cond = _bool_cond(ctx, node.test)
    body, names, sites = _body(ctx, "While", node, [])
    if sites:
        raise ctx.error(sites[0].node, "pl.yield_ in a while loop needs pl.while_(init_values=...)")
    ctx.leak(names)
    return [WhileStmt((), cond, make_body(body), span=ctx.src.stmt_span(node))]
