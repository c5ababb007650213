"""The one rewriter of the passes that rebuild function bodies, and the pass boilerplate.

Guarantees: nothing here mutates its input. `Rewriter` walks a function body, substitutes
remapped variables everywhere they are used (`var`), and lets subclasses replace one statement by
several. The retyping of carries is written here once, for every pass (the lowering passes and
memory-space inference's `pl.infer.mutate.Mutator`): an iter arg takes the type of its (rewritten)
initial value, a loop's return vars take its iter args' types and an if's return vars the types
its branches yield, whenever these changed. A pass adds statements a loop's initial values need
before the loop (`init_value`) and statements before the yields of an if's branches
(`merge_branches`). Only the spine above a changed statement is rebuilt: an unchanged expression,
statement, body, loop or function comes back as the same object, so a pass that changes nothing
costs one walk and hands its input on. `map_incore_functions` is a pass's outer loop (its InCore /
AIC / AIV functions, the very program back when none changed).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from typing_extensions import assert_never

from pl.ir.expr import Call, Expr, IterArg, Var
from pl.ir.function import Function, Program
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
from pl.ir.traverse import last_yield, map_expr, map_stmt
from pl.ir.types import TileType, Type

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

    def var(self, v: Var) -> Expr:
        """What stands for `v` in the rewritten body (itself unless remapped)."""
        return self.remap.get(id(v), v)

    def expr(self, e: Expr) -> Expr:
        if isinstance(e, Var):
            return self.var(e)
        if isinstance(e, Call):
            return self.call(e)
        return map_expr(e, self.expr)

    def call(self, e: Call) -> Expr:
        """`e` with its arguments and kwargs substituted, rebuilt through `rebuild_call` when one
        changed."""
        args = self.exprs(e.args)
        kwargs = self.kwargs(e.kwargs) if e.kwargs else e.kwargs
        if args is e.args and kwargs is e.kwargs:
            return e
        return self.rebuild_call(e, args, kwargs)

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
                return self.loop(s)
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

    def init_value(self, ia: IterArg, position: int, before: list[Stmt]) -> Expr:
        """The initial value the rewritten loop gives `ia` (its `position`-th iter arg); a pass
        appends to `before` the statements that value needs right before the loop."""
        return self.expr(ia.init)

    def iter_args(self, iter_args: tuple[IterArg, ...], before: list[Stmt]) -> tuple[IterArg, ...]:
        """The loop's iter args (`self.var` of each), each of the type of its rewritten initial
        value (an iter arg is written only through its initial value, `init_values=(x,)`), as
        `follows` says."""
        out: list[IterArg] = []
        for i, ia in enumerate(iter_args):
            init = self.init_value(ia, i, before)
            cur = self.var(ia)
            assert isinstance(cur, IterArg)
            t = init.type if follows(cur.type, init.type) else cur.type
            if init is cur.init and not retyped(cur.type, t):
                out.append(cur)
                continue
            new = IterArg(ia.name, t, init=init, span=ia.span)
            self.map_var(ia, new)
            out.append(new)
        return iter_args if same_items(out, iter_args) else tuple(out)

    def retype_vars(self, olds: tuple[Var, ...], types: Sequence[Type]) -> tuple[Var, ...]:
        """Return vars (`self.var` of each) that take the types of the values they are read back
        from (`types`: a loop's iter args, an if's then-branch yields, else-branch without one)
        where these differ, as `follows` says."""
        out: list[Var] = []
        for i, rv in enumerate(olds):
            cur = self.var(rv)
            assert isinstance(cur, Var)
            if i < len(types) and follows(cur.type, types[i]) and retyped(cur.type, types[i]):
                cur = Var(rv.name, types[i], span=rv.span)
                self.map_var(rv, cur)
            out.append(cur)
        return olds if same_items(out, olds) else tuple(out)

    def loop(self, s: ForStmt | WhileStmt) -> list[Stmt]:
        """The loop with its iter args retyped (`iter_args`), its header and body rewritten, and
        its return vars of its iter args' types; preceded by what its initial values need."""
        before: list[Stmt] = []
        iter_args = self.iter_args(s.iter_args, before)
        new = self.loop_body_done(map_stmt(s, self.body, self.expr), s, iter_args)
        rvs = self.retype_vars(s.return_vars, [ia.type for ia in iter_args])
        if iter_args is not s.iter_args or rvs is not s.return_vars:
            new = replace(new, iter_args=iter_args, return_vars=rvs)
        return [*before, new]

    def loop_body_done(self, new: ForStmt | WhileStmt, old: ForStmt | WhileStmt,
                       iter_args: tuple[IterArg, ...]) -> ForStmt | WhileStmt:
        """`new`, the loop `old` with its body and header rewritten (its iter args are to become
        `iter_args`): a subclass may change it further."""
        return new

    def if_stmt(self, s: IfStmt) -> Stmt:
        """An if whose branches each start from the substitutions made before it (`branches_start`
        runs between the condition and the branches), whose branches a pass may complete before
        their yields (`merge_branches`), and whose return vars take the types of the values its
        branches yield."""
        cond = self.expr(s.condition)
        self.branches_start(s)
        saved = self.remap

        def branch(b: Stmt) -> Stmt:
            self.remap = dict(saved)
            return self.body(b)

        then_body = branch(s.then_body)
        else_body = None if s.else_body is None else branch(s.else_body)
        self.remap = saved
        then_body, else_body = self.merge_branches(s, then_body, else_body)
        rvs = self.retype_vars(s.return_vars, yield_types(then_body) or yield_types(else_body))
        if same_items((cond, then_body, else_body, *rvs),
                      (s.condition, s.then_body, s.else_body, *s.return_vars)):
            return s
        return replace(s, condition=cond, then_body=then_body, else_body=else_body,
                       return_vars=rvs)

    def branches_start(self, s: IfStmt) -> None:
        """Called once `s`'s condition is rewritten, before its branches."""

    def merge_branches(self, s: IfStmt, then_body: Stmt,
                       else_body: Stmt | None) -> tuple[Stmt, Stmt | None]:
        """The rewritten branches of `s`, which a pass may complete before their closing yields
        (the values they hand the if's return vars)."""
        return then_body, else_body

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

    A rebuilt SeqStmts keeps `old`'s span; one with comments is always rebuilt (a rebuilt one
    carries none).
    """
    if type(old) is SeqStmts:
        if len(stmts) != 1 and not old.comments and same_items(stmts, old.stmts):
            return old
        new = make_body(stmts)
        return replace(new, span=old.span) if isinstance(new, SeqStmts) else new
    if old is not None and len(stmts) == 1 and stmts[0] is old:
        return old
    return make_body(stmts)


def retyped(old: Type, new: Type) -> bool:
    """Whether a value of type `old` retyped `new` changes: the types differ, or the buffers
    they name (a MemRef takes no part in type equality)."""
    return new is not old and (new != old or getattr(new, "memref", None)
                               != getattr(old, "memref", None))


def follows(merged: Type, source: Type) -> bool:
    """Whether a carried or merged value (an iter arg, a return var) of type `merged` takes the
    type `source` of the value it is read from: always, except that a tile keeps its memory space
    (a tile in another space is moved into it, or the branches disagree and the merged value
    keeps the space its pass gave it)."""
    return not (isinstance(merged, TileType) and isinstance(source, TileType)
                and merged.memory_space != source.memory_space)


def yield_types(body: Stmt | None) -> list[Type]:
    """The types of the values the yield ending `body` gives, [] without one."""
    y = last_yield(body)
    return [v.type for v in y.values] if y is not None else []


def map_incore_functions(program: Program, fn: Callable[[Function], Function]) -> Program:
    """`program` with `fn` applied to each InCore / AIC / AIV function; the very `program` when
    no function changed."""
    funcs = tuple(fn(f) if f.func_type.is_incore_kind() else f for f in program.functions)
    if same_items(funcs, program.functions):
        return program
    return Program(program.name, funcs, span=program.span)
