"""The one rewriter of the passes that rebuild function bodies, and the pass boilerplate.

Guarantees: nothing here mutates its input. `Rewriter` walks a function body, substitutes
remapped variables everywhere they are used, re-types loop carries and if-phis when the values
flowing into them change type, and lets subclasses replace one statement by several. Only the
spine above a changed statement is rebuilt: an unchanged expression, statement, body, loop or
function comes back as the same object, so a pass that changes nothing costs one walk and hands
its input on. `map_incore_functions` is a pass's outer loop (its InCore / AIC / AIV functions,
the very program back when none changed).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from typing_extensions import assert_never

from pl.ir.expr import Call, Expr, IterArg, Var
from pl.ir.function import Function, Program
from pl.ir.span import UNKNOWN_SPAN
from pl.ir.stmt import (
    AssignStmt,
    BreakStmt,
    ContinueStmt,
    EvalStmt,
    ForStmt,
    IfStmt,
    ReturnStmt,
    ScopeStmt,
    SeqStmts,
    Stmt,
    WhileStmt,
    YieldStmt,
    flatten_body,
    make_body,
    stmt_kind,
)
from pl.ir.traverse import map_expr, map_stmt
from pl.ir.types import Type

CallRebuild = Callable[[Call, tuple[Expr, ...], tuple[tuple[str, Any], ...]], Call]


def keep_result_type(e: Call, args: tuple[Expr, ...], kwargs: tuple[tuple[str, Any], ...]) -> Call:
    """`e` over new arguments: the same op, attrs and result type."""
    return Call(e.op, args, kwargs, e.attrs, e.result_type, span=e.span)


class Rewriter:
    """A statement walker with variable substitution and type propagation through carries.

    Subclasses override `assign`, `eval`, `ret`, `expr` or `stmt`; everything else is rebuilt
    through `pl.ir.traverse.map_stmt`, so an unchanged statement comes back as the same object.
    `rebuild` makes a call whose arguments changed (default: the same op, attrs and result type;
    the lowering passes give `rededuce_call`, which re-deduces it)."""

    def __init__(self, rebuild: CallRebuild = keep_result_type) -> None:
        self.remap: dict[int, Expr] = {}
        self.rebuild = rebuild

    # ---- expressions -------------------------------------------------------------------------
    def map_var(self, old: Var, new: Expr) -> None:
        self.remap[id(old)] = new

    def expr(self, e: Expr) -> Expr:
        if isinstance(e, Var):
            return self.remap.get(id(e), e)
        if isinstance(e, Call):
            # Arguments and kwargs are substituted and a changed call is rebuilt through
            # `rebuild_call`.
            args = self.exprs(e.args)
            kwargs = self.kwargs(e.kwargs) if e.kwargs else e.kwargs
            if args is e.args and kwargs is e.kwargs:
                return e
            return self.rebuild_call(e, args, kwargs)
        return map_expr(e, self.expr)

    def kwargs(self, pairs: tuple[tuple[str, Any], ...]) -> tuple[tuple[str, Any], ...]:
        """`expr` of each expression-valued kwarg: the same tuple when none changed."""
        out = tuple([(n, self.expr(v) if isinstance(v, Expr) else v) for n, v in pairs])
        return pairs if same_items([v for _, v in out], [v for _, v in pairs]) else out

    def rebuild_call(self, e: Call, args: tuple[Expr, ...],
                     kwargs: tuple[tuple[str, Any], ...]) -> Call:
        return self.rebuild(e, args, kwargs)

    # ---- statements --------------------------------------------------------------------------
    def body(self, s: Stmt) -> Stmt:
        out: list[Stmt] = []
        for child in flatten_body(s):
            out.extend(self.stmt(child))
        return body_of(s, out)

    def stmt(self, stmt: Stmt) -> list[Stmt]:
        s = stmt_kind(stmt)
        match s:
            case AssignStmt():
                return self.assign(s)
            case EvalStmt():
                return self.eval(s)
            case ReturnStmt():
                return self.ret(s)
            case SeqStmts():
                return [self.body(s)]
            case ForStmt() | WhileStmt():
                return [self.loop(s)]
            case IfStmt():
                return [self.if_stmt(s)]
            case YieldStmt() | ScopeStmt() | BreakStmt() | ContinueStmt():
                return [map_stmt(s, self.body, self.expr)]
            case _:
                assert_never(s)

    def ret(self, s: ReturnStmt) -> list[Stmt]:
        """A return, rewritten where it stands (a return is never moved: the code after an early
        return must not run)."""
        return [map_stmt(s, expr=self.expr)]

    def exprs(self, values: tuple[Expr, ...]) -> tuple[Expr, ...]:
        """`expr` of each value: the same tuple when none changed."""
        expr = self.expr
        for i, v in enumerate(values):
            new = expr(v)
            if new is not v:  # the first change: copy from here on
                return (*values[:i], new, *[expr(x) for x in values[i + 1:]])
        return values

    def assign(self, s: AssignStmt) -> list[Stmt]:
        return [self.pass_through(s, self.expr(s.value))]

    def pass_through(self, s: AssignStmt, value: Expr) -> AssignStmt:
        if value is s.value:
            return s
        if value.type != s.var.type:
            new_var = Var(s.var.name, value.type, span=s.var.span)
            self.map_var(s.var, new_var)
            return AssignStmt(new_var, value, span=s.span, comments=s.comments)
        return AssignStmt(s.var, value, span=s.span, comments=s.comments)

    def eval(self, s: EvalStmt) -> list[Stmt]:
        return [map_stmt(s, expr=self.expr)]

    def init_value(self, ia: IterArg) -> Expr:
        """The initial value the rewritten loop gives `ia`."""
        return self.expr(ia.init)

    def iter_args(self, iter_args: tuple[IterArg, ...]) -> tuple[IterArg, ...]:
        out: list[IterArg] = []
        for ia in iter_args:
            init = self.init_value(ia)
            if init is ia.init:
                out.append(ia)
                continue
            new = IterArg(ia.name, init.type, init=init, span=ia.span)
            self.map_var(ia, new)
            out.append(new)
        return iter_args if same_items(out, iter_args) else tuple(out)

    def retype_vars(self, olds: tuple[Var, ...], types: Sequence[Type]) -> tuple[Var, ...]:
        out: list[Var] = []
        for i, rv in enumerate(olds):
            if i < len(types) and types[i] != rv.type:
                new = Var(rv.name, types[i], span=rv.span)
                self.map_var(rv, new)
                out.append(new)
            else:
                out.append(rv)
        return olds if same_items(out, olds) else tuple(out)

    def loop(self, s: ForStmt | WhileStmt) -> Stmt:
        """A loop whose iter args take their initial values' new types (remapped in the body) and
        whose return vars take the iter args' types."""
        iter_args = self.iter_args(s.iter_args)
        new = self.loop_body_done(map_stmt(s, self.body, self.expr), s, iter_args)
        rvs = self.retype_vars(s.return_vars, [ia.type for ia in iter_args])
        if iter_args is s.iter_args and rvs is s.return_vars:
            return new
        return replace(new, iter_args=iter_args, return_vars=rvs)

    def loop_body_done(self, new: ForStmt | WhileStmt, old: ForStmt | WhileStmt,
                       iter_args: tuple[IterArg, ...]) -> ForStmt | WhileStmt:
        """`new`, the loop `old` with its body and header rewritten (its iter args are to become
        `iter_args`): a subclass may change it further."""
        return new

    def if_stmt(self, s: IfStmt) -> Stmt:
        """An if whose branches each start from the substitutions made before it, and whose return
        vars take the types of the values its branches yield."""
        saved = self.remap

        def branch(b: Stmt) -> Stmt:
            self.remap = dict(saved)
            return self.body(b)

        new = map_stmt(s, branch, self.expr)
        self.remap = saved
        types = yield_types(new.then_body) or yield_types(new.else_body)
        rvs = self.retype_vars(s.return_vars, types)
        return new if rvs is s.return_vars else replace(new, return_vars=rvs)

    def function(self, f: Function, **changes: Any) -> Function:
        body = self.body(f.body)
        fields: dict[str, Any] = dict(params=f.params, directions=f.directions,
                                      return_types=f.return_types)
        fields.update(changes)
        if body is f.body and fields["params"] is f.params \
                and fields["directions"] is f.directions \
                and fields["return_types"] is f.return_types:
            return f
        return Function(f.name, fields["params"], fields["directions"], fields["return_types"],
                        body, f.func_type, f.level, f.role, f.attrs, span=f.span,
                        comments=f.comments)


def same_items(new: Sequence[Any], old: Sequence[Any]) -> bool:
    """Whether two sequences hold the very same objects, in order."""
    return len(new) == len(old) and all(map(operator.is_, new, old))


def body_of(old: Stmt | None, stmts: list[Stmt]) -> Stmt:
    """`make_body(stmts)`, or `old` itself when that would rebuild an equal body from the same
    statements: a pass that changed nothing hands its input on, so later passes stay cheap.

    A SeqStmts is reused only in `make_body`'s own form (flat, no span, no comments), since a
    rebuilt one carries neither.
    """
    if type(old) is SeqStmts:
        if len(stmts) != 1 and not old.comments and old.span == UNKNOWN_SPAN \
                and same_items(stmts, old.stmts):
            return old
    elif old is not None and len(stmts) == 1 and stmts[0] is old:
        return old
    return make_body(stmts)


def yield_types(body: Stmt | None) -> list[Type]:
    for s in flatten_body(body):
        if isinstance(s, YieldStmt):
            return [v.type for v in s.values]
        if isinstance(s, ScopeStmt):
            found = yield_types(s.body)
            if found:
                return found
    return []


def map_incore_functions(program: Program, fn: Callable[[Function], Function]) -> Program:
    """`program` with `fn` applied to each InCore / AIC / AIV function; the very `program` when
    no function changed."""
    funcs = tuple(fn(f) if f.func_type.is_incore_kind() else f for f in program.functions)
    if same_items(funcs, program.functions):
        return program
    return Program(program.name, funcs, span=program.span)
