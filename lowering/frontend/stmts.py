"""Statements: assignments, yields, returns, if/else, `with` scopes, and block assembly.

Guarantees: leading `#` comments of a statement become the `comments` of the first IR statement
it produces (comments above a `pass` move on to the next one); a non-strict rebinding of a plain
Var re-uses that Var and must keep its type; `a, b = call(...)` goes through a tuple temp and
TupleGetItem; if-branches with assignment-form `pl.yield_` get return vars, otherwise their
bindings stay visible after the if (non-SSA, fixed by SSA conversion).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any, Final

import libcst as cst

from lowering.flatten_nd import as_flattened_load
from lowering.frontend.context import FnCtx, YieldSite
from lowering.frontend.exprs import attrs_arg, hoist_nested, lower_call, lower_expr, lower_value, static_value
from lowering.frontend.types import Annot, check_local, lower_annotation, type_mismatch, type_text
from pl import dsl
from pl.ir.enums import DType, Level, ScopeKind
from pl.ir.expr import Expr, IterArg, TupleGetItem, Var
from pl.ir.stmt import (
    AssignStmt,
    BreakStmt,
    ContinueStmt,
    EvalStmt,
    IfStmt,
    ReturnStmt,
    ScopeStmt,
    Stmt,
    YieldStmt,
    make_body,
)
from pl.ir.types import ScalarType, TensorType, TileType, TupleType, Type, UnknownType

_AUG: Final[Mapping[type[cst.BaseAugOp], type[cst.BaseBinaryOp]]] = MappingProxyType({
    cst.AddAssign: cst.Add, cst.SubtractAssign: cst.Subtract, cst.MultiplyAssign: cst.Multiply,
    cst.DivideAssign: cst.Divide, cst.FloorDivideAssign: cst.FloorDivide,
    cst.ModuloAssign: cst.Modulo, cst.LeftShiftAssign: cst.LeftShift,
    cst.RightShiftAssign: cst.RightShift})


def comments_of(node: cst.CSTNode) -> list[str]:
    out = []
    for line in getattr(node, "leading_lines", ()):
        if line.comment is not None:
            out.append(line.comment.value[1:].strip())
    return out


def lower_block(ctx: FnCtx, stmts: Sequence[cst.CSTNode]) -> list[Stmt]:
    out: list[Stmt] = []
    pending: list[str] = []
    outer_span = ctx.cur_span
    src = ctx.src
    for s in stmts:
        if getattr(s, "leading_lines", None):
            pending += comments_of(s)
        if type(s) is cst.SimpleStatementLine and len(s.body) == 1:  # the common line
            small = s.body[0]
            ctx.cur_span = src.stmt_span(small)
            produced = lower_small(ctx, small)
        elif isinstance(s, cst.SimpleStatementLine):
            produced = []
            for small in s.body:
                ctx.cur_span = src.stmt_span(small)
                produced += lower_small(ctx, small)
        else:
            from lowering.frontend.loops import lower_compound
            ctx.cur_span = ctx.src.stmt_span(s)
            produced = lower_compound(ctx, s)
        ctx.emitted += len(produced)
        if produced and isinstance(produced[-1], YieldStmt) and s is not stmts[-1]:
            raise ctx.error(s, "pl.yield_ must be the last statement of its loop or branch body",
                            hint="move the statements after it above the yield")
        if produced and pending:
            produced[0] = replace(produced[0], comments=tuple(pending))  # type: ignore[type-var]
            pending = []
        out += produced
    ctx.cur_span = outer_span
    return out


def suite(body: cst.BaseSuite) -> Sequence[cst.CSTNode]:
    if isinstance(body, cst.IndentedBlock):
        return body.body
    assert isinstance(body, cst.SimpleStatementSuite)
    return [cst.SimpleStatementLine(body=[b]) for b in body.body]


def dsl_callee(ctx: FnCtx, node: cst.CSTNode) -> Any:
    """The DSL object a call's callee denotes, or None (never raises)."""
    # Attribute first: `pl.op(...)` is the common callee, and an exact class match skips the
    # (slow) ABC check that LibCST's node classes otherwise cost.
    if type(node) is cst.Call:
        func = node.func
        if type(func) is cst.Attribute or type(func) is cst.Name:
            return ctx.try_resolve(func)
    if not isinstance(node, cst.Call) or not isinstance(node.func, cst.Attribute | cst.Name):
        return None
    return ctx.try_resolve(node.func)


def lower_small(ctx: FnCtx, node: cst.BaseSmallStatement) -> list[Stmt]:
    """The statements of one simple statement: the op calls nested in its op calls' arguments
    first (see `FnCtx.hoisted`), then the statement itself."""
    # Dispatch on the exact node class (LibCST nodes are ABCs: class patterns are slow).
    handler = _SMALL_HANDLERS.get(type(node))
    if handler is None:
        handler = _small_handler_by_isinstance(node)
    outer, ctx.hoisted = ctx.hoisted, []
    try:
        produced = handler(ctx, node)
        hoisted: list[Stmt] = ctx.hoisted
    finally:
        ctx.hoisted = outer
    return hoisted + produced if hoisted else produced


def _assign_stmt(ctx: FnCtx, node: cst.Assign) -> list[Stmt]:
    if len(node.targets) != 1:
        raise ctx.error(node, "Chained assignment (a = b = e) is not supported")
    return assign(ctx, node.targets[0].target, node.value, None, node)


def _ann_assign_stmt(ctx: FnCtx, node: cst.AnnAssign) -> list[Stmt]:
    if node.value is None:
        raise ctx.error(node, "A declaration without a value is not supported")
    if not isinstance(node.target, cst.Name):
        raise ctx.error(node.target, "An annotated assignment needs a plain name")
    ann = lower_annotation(ctx, node.annotation.annotation, lower_expr)
    return assign(ctx, node.target, node.value, ann, node)


def _aug_assign_stmt(ctx: FnCtx, node: cst.AugAssign) -> list[Stmt]:
    op = _AUG.get(type(node.operator))
    if op is None or not isinstance(node.target, cst.Name):
        raise ctx.error(node, "Unsupported augmented assignment")
    value = cst.BinaryOperation(node.target, op(), node.value)
    e = lower_expr(ctx, value)
    return [bind(ctx, node.target, e, None, node)]


def _return_stmt(ctx: FnCtx, node: cst.Return) -> list[Stmt]:
    span = ctx.src.stmt_span(node)
    if ctx.loops:
        raise ctx.error(node, "return is not allowed inside a loop",
                        hint="carry the value out with init_values and pl.yield_, "
                             "then return it after the loop")
    vals: tuple[Expr, ...] = ()
    if isinstance(node.value, cst.Tuple):
        vals = tuple(hoist_nested(ctx, lower_expr(ctx, el.value)) for el in node.value.elements)
    elif node.value is not None:
        vals = (hoist_nested(ctx, lower_expr(ctx, node.value)),)
    _check_returned(ctx, node, vals)
    return [ReturnStmt(vals, span=span)]


def _check_returned(ctx: FnCtx, node: cst.Return, vals: tuple[Expr, ...]) -> None:
    """The returned values against the `->` annotation: as many as declared, each of the declared
    kind and dtype (`type_mismatch`; other dims are kept as declared, as the reference does)."""
    declared = ctx.return_types
    if not declared:
        return
    actual: tuple[Type, ...] = tuple(v.type for v in vals)
    if len(actual) == 1 and isinstance(actual[0], TupleType) and len(declared) != 1:
        actual = actual[0].types
    if len(actual) != len(declared):
        raise ctx.error(node, f"Function '{ctx.name}' declares {len(declared)} return value(s) but "
                              f"returns {len(actual)}")
    for i, (d, a) in enumerate(zip(declared, actual, strict=True)):
        why = type_mismatch(d, a)
        if why is not None:
            where = node.value if len(vals) == 1 or not isinstance(node.value, cst.Tuple) \
                else node.value.elements[i].value
            raise ctx.error(where or node, f"Returned value {why} ({type_text(d)})",
                            hint=f"Change the return annotation to: {type_text(a)}")


def _pass_stmt(ctx: FnCtx, node: cst.Pass) -> list[Stmt]:
    return []


def _break_continue_stmt(ctx: FnCtx, node: cst.Break | cst.Continue) -> list[Stmt]:
    span = ctx.src.stmt_span(node)
    word = "break" if isinstance(node, cst.Break) else "continue"
    if not ctx.loops:
        raise ctx.error(node, f"'{word}' outside a loop")
    if ctx.loops[-1][0] not in ("Sequential", "While"):
        raise ctx.error(node, f"'{word}' is only allowed in pl.range and while loops")
    return [BreakStmt(span=span) if word == "break" else ContinueStmt(span=span)]


def _unsupported_stmt(ctx: FnCtx, node: cst.BaseSmallStatement) -> list[Stmt]:
    raise ctx.error(node, f"Unsupported statement type: {type(node).__name__}")


def _small_handler_by_isinstance(node: cst.BaseSmallStatement) -> Callable[[FnCtx, Any], list[Stmt]]:
    """The handler of a statement whose class is not in the table (a subclass), or the error."""
    for cls, handler in _SMALL_HANDLERS.items():
        if isinstance(node, cls):
            return handler
    return _unsupported_stmt


def _expr_stmt(ctx: FnCtx, node: cst.Expr) -> list[Stmt]:
    value = node.value
    if isinstance(value, cst.SimpleString | cst.ConcatenatedString):
        return []  # docstring
    obj = dsl_callee(ctx, value)
    if obj is dsl.yield_:
        assert isinstance(value, cst.Call)
        return [yield_site(ctx, None, [None], value, node)]
    if obj is dsl.static_print:
        return []
    if obj is dsl.static_assert:
        assert isinstance(value, cst.Call)
        _static_assert(ctx, value)
        return []
    if obj is dsl.func_attr:
        assert isinstance(value, cst.Call)
        if ctx.emitted:
            raise ctx.error(value, "pl.func_attr(...) must be the first statement of the function")
        for arg in value.args:
            ctx.attrs.extend(attrs_arg(ctx, arg.value, "pl.func_attr"))
        return []
    if obj is dsl.cond:
        raise ctx.error(value, "pl.cond(...) must be the first statement of a pl.while_ loop")
    return [EvalStmt(lower_expr(ctx, value), span=ctx.src.stmt_span(node))]


def _static_assert(ctx: FnCtx, call: cst.Call) -> None:
    """`pl.static_assert(cond[, "message"])`: `cond` must be computable while compiling (constants
    and module-level numbers), and fails the compile at this line when false (the reference's
    semantics)."""
    args = list(call.args)
    if not 1 <= len(args) <= 2 or any(a.keyword is not None or a.star for a in args):
        raise ctx.error(call, "static_assert() requires 1 or 2 arguments",
                        hint="Use: pl.static_assert(condition) or "
                             "pl.static_assert(condition, 'message')")
    message = ""
    if len(args) == 2:
        text = args[1].value
        literal = text.evaluated_value if isinstance(text, cst.SimpleString) else None
        if not isinstance(literal, str):
            raise ctx.error(text, "static_assert() message must be a string literal")
        message = literal
    cond = args[0].value
    result = static_value(lower_expr(ctx, cond))
    source = cst.Module([]).code_for_node(cond)
    if result is None:
        raise ctx.error(cond, "static_assert condition must be compile-time evaluable",
                        hint=f"Condition `{source}` cannot be computed while compiling (it "
                             "reads a kernel value, or divides by zero)")
    if not result:
        raise ctx.error(call, f"static_assert failed: {message}" if message
                        else "static_assert failed",
                        hint=f"Condition `{source}` evaluated to {result!r}")



def yield_site(ctx: FnCtx, names: list[str] | None, types: list[Type | None], call: cst.Call,
               stmt: cst.CSTNode) -> Stmt:
    if not ctx.yields:
        raise ctx.error(call, "pl.yield_(...) is only allowed inside a loop or an if")
    values = [hoist_nested(ctx, lower_expr(ctx, a.value)) for a in call.args]
    if names is not None and len(names) != len(values):
        raise ctx.error(call, f"pl.yield_ gives {len(values)} value(s) to {len(names)} name(s)",
                        hint="yield one value per name on the left")
    ctx.yields[-1].append(YieldSite(names, types, values, stmt))
    return YieldStmt(tuple(values), span=ctx.src.stmt_span(stmt))


def assign(ctx: FnCtx, target: cst.BaseAssignTargetExpression, value: cst.BaseExpression,
           ann: Annot | None, node: cst.CSTNode) -> list[Stmt]:
    callee = dsl_callee(ctx, value)
    if callee is dsl.yield_:
        assert isinstance(value, cst.Call)
        if isinstance(target, cst.Name):
            return [yield_site(ctx, [target.value], [ann.type if ann else None], value, node)]
        if isinstance(target, cst.Tuple | cst.List) and all(
                isinstance(e.value, cst.Name) for e in target.elements):
            names = [e.value.value for e in target.elements]  # type: ignore[attr-defined]
            return [yield_site(ctx, names, [None] * len(names), value, node)]
        raise ctx.error(target, "The target of pl.yield_ must be names")
    if type(target) is cst.Name or isinstance(target, cst.Name):
        return [bind(ctx, target, _lower_rhs(ctx, value, callee), ann, node)]
    if isinstance(target, cst.Tuple | cst.List):
        return _unpack(ctx, target, _lower_rhs(ctx, value, callee), node)
    raise ctx.error(target, f"Unsupported assignment target: {type(target).__name__}")


def _lower_rhs(ctx: FnCtx, value: cst.BaseExpression, callee: Any) -> Expr:
    """`lower_expr(ctx, value)`, without resolving the callee of a call a second time."""
    if callee is not None and type(value) is cst.Call:
        return lower_call(ctx, value, callee)
    return lower_expr(ctx, value)


def _unpack(ctx: FnCtx, target: cst.Tuple | cst.List, e: Expr, node: cst.CSTNode) -> list[Stmt]:
    names = []
    for el in target.elements:
        if not isinstance(el.value, cst.Name):
            raise ctx.error(el, "Tuple unpacking targets must be plain names")
        names.append(el.value)
    t = e.type
    if not isinstance(t, TupleType) or len(t.types) != len(names):
        got = len(t.types) if isinstance(t, TupleType) else 1
        raise ctx.error(node, f"Cannot unpack {got} value(s) into {len(names)} names")
    span = ctx.src.stmt_span(node)
    tmp = Var("_tuple_tmp", t, span=span)
    out: list[Stmt] = [AssignStmt(tmp, e, span=span)]
    for i, n in enumerate(names):
        out.append(bind(ctx, n, TupleGetItem(tmp, i), None, node))
    return out


def _same(a: Type, b: Type) -> bool:
    if a == b or isinstance(a, UnknownType) or isinstance(b, UnknownType):
        return True
    if isinstance(a, TileType | TensorType) and type(a) is type(b):
        return a.dtype == b.dtype and a.shape == b.shape
    if isinstance(a, ScalarType) and isinstance(b, ScalarType):
        return {a.dtype, b.dtype} <= {DType.INDEX, DType.INT64}
    return False


def bind(ctx: FnCtx, name_node: cst.Name, value: Expr, ann: Annot | None,
         node: cst.CSTNode) -> Stmt:
    name = name_node.value
    if ann is not None:
        value = as_flattened_load(value, ann.type)
    t = check_local(ctx, name, ann, value.type, node) if ann is not None else value.type
    span = ctx.prog.src.stmt_span(node)
    existing = ctx.lookup_var(name)
    if existing is not None:  # a rebinding
        if ctx.prog.strict_ssa and name in ctx.scopes[-1] \
                and id(existing) not in ctx.params and not isinstance(existing, IterArg):
            raise ctx.error(name_node, f"Variable '{name}' is already defined",
                            hint="strict_ssa is on: bind the new value to a new name")
        if not isinstance(existing, IterArg) and not ctx.prog.strict_ssa:
            if not _same(existing.type, t):
                raise ctx.error(node, f"Cannot reassign '{name}' with a different type: was "
                                      f"{type_text(existing.type)}, got {type_text(t)}",
                                hint="Bind the new value to a new name")
            return AssignStmt(existing, value, span=span)
    var = Var(name, t, span=span)
    ctx.bind(name, var)
    return AssignStmt(var, value, span=span)


# -- if / with --------------------------------------------------------------------------------


def lower_if(ctx: FnCtx, node: cst.If) -> list[Stmt]:
    cond = lower_expr(ctx, node.test)
    if cond.type != ScalarType(DType.BOOL):
        raise ctx.error(node.test, "if condition must be a Bool-typed scalar expression, got "
                                   f"{type_text(cond.type)}",
                        hint="Compare explicitly, e.g. `if n > 0:`")
    ctx.yields.append([])
    ctx.push()
    then = lower_block(ctx, suite(node.body))
    then_names = ctx.pop()
    then_sites = ctx.yields.pop()
    ctx.yields.append([])
    ctx.push()
    other: list[Stmt] | None = None
    if isinstance(node.orelse, cst.Else):
        other = lower_block(ctx, suite(node.orelse.body))
    elif isinstance(node.orelse, cst.If):
        other = lower_if(ctx, node.orelse)
    else_names = ctx.pop()
    else_sites = ctx.yields.pop()
    span = ctx.src.stmt_span(node)
    sites = then_sites + else_sites
    if not sites:
        ctx.leak(then_names)
        ctx.leak(else_names)
        return [IfStmt(cond, make_body(then), make_body(other) if other is not None else None,
                       span=span)]
    for s in sites:
        if s.names is None:
            raise ctx.error(s.node, "pl.yield_ in an if needs the assignment form: x = pl.yield_(e)")
    n_then = len(then_sites[-1].values) if then_sites else 0
    n_else = len(else_sites[-1].values) if else_sites else 0
    if n_then != n_else:
        culprit: cst.CSTNode = (else_sites[-1].node if else_sites
                                else node.orelse if node.orelse is not None else node)
        raise ctx.error(culprit, "Both branches of an if must yield the same number of values "
                                 f"({n_then} vs {n_else})",
                        hint="end each branch with `name = pl.yield_(value)`")
    order: list[tuple[str, Any]] = []
    for s in then_sites + else_sites:
        for i, n in enumerate(s.names or []):
            if n not in [o[0] for o in order]:
                t = s.types[i] if i < len(s.types) and s.types[i] is not None else s.values[i].type
                order.append((n, t))
    rvs = tuple(Var(n, t, span=span) for n, t in order)
    for v in rvs:
        ctx.bind(v.name, v)
    return [IfStmt(cond, make_body(then), make_body(other) if other is not None else None, rvs,
                   span=span)]


def lower_with(ctx: FnCtx, node: cst.With) -> list[Stmt]:
    if len(node.items) != 1:
        raise ctx.error(node, "Only one context manager per `with` is supported")
    item = node.items[0]
    if item.asname is not None:
        raise ctx.error(item.asname, "`with ... as name` is not supported")
    call = item.item
    obj = dsl_callee(ctx, call)
    if not isinstance(call, cst.Call) or obj not in (dsl.scope, dsl.manual_scope, dsl.at,
                                                     dsl.cluster, dsl.spmd):
        raise ctx.error(call, "Unsupported context manager: use pl.scope(), pl.at(...), "
                              "pl.cluster() or pl.spmd(n)")
    args: list[tuple[str, Any]] = []
    for a in call.args:
        if a.keyword is None:
            if obj is not dsl.spmd or args:
                raise ctx.error(a, "Scope arguments are keywords")
            args.append(("core_num", lower_expr(ctx, a.value)))
        else:
            v = lower_value(ctx, a.value)
            args.append((a.keyword.value, v))
    kind = ScopeKind.Runtime
    if obj is dsl.manual_scope:
        args = [("mode", dsl.ScopeMode.MANUAL)]
    elif obj is dsl.at:
        level = dict(args).get("level")
        kind = ScopeKind.InCore if level is Level.CORE_GROUP else ScopeKind.Hierarchy
    elif obj is dsl.cluster:
        kind = ScopeKind.Cluster
    elif obj is dsl.spmd:
        kind = ScopeKind.Spmd
    body = lower_block(ctx, suite(node.body))
    return [ScopeStmt(kind, make_body(body), tuple(args), span=ctx.src.stmt_span(node))]


# The small statements lower_small accepts, by exact LibCST class.
_SMALL_HANDLERS: Final[Mapping[type, Callable[[FnCtx, Any], list[Stmt]]]] = MappingProxyType({
    cst.Assign: _assign_stmt, cst.AnnAssign: _ann_assign_stmt, cst.AugAssign: _aug_assign_stmt,
    cst.Expr: _expr_stmt, cst.Return: _return_stmt, cst.Pass: _pass_stmt,
    cst.Break: _break_continue_stmt, cst.Continue: _break_continue_stmt,
})
