"""IR statements: a closed set, dispatched with `match` by every walker.

Spans and leading comments are carried on every statement and ignored by `==`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pl.ir.enums import ForKind, ScopeKind
from pl.ir.expr import Expr, IterArg, Var
from pl.ir.span import UNKNOWN_SPAN, Span


class Stmt:
    __slots__ = ()

    span: Span
    comments: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AssignStmt(Stmt):
    var: Var
    value: Expr
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)
    comments: tuple[str, ...] = field(default=(), compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class EvalStmt(Stmt):
    expr: Expr
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)
    comments: tuple[str, ...] = field(default=(), compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class ReturnStmt(Stmt):
    values: tuple[Expr, ...] = ()
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)
    comments: tuple[str, ...] = field(default=(), compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class YieldStmt(Stmt):
    values: tuple[Expr, ...] = ()
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)
    comments: tuple[str, ...] = field(default=(), compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class SeqStmts(Stmt):
    stmts: tuple[Stmt, ...] = ()
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)
    comments: tuple[str, ...] = field(default=(), compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class IfStmt(Stmt):
    condition: Expr
    then_body: Stmt
    else_body: Stmt | None = None
    return_vars: tuple[Var, ...] = ()
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)
    comments: tuple[str, ...] = field(default=(), compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class ForStmt(Stmt):
    loop_var: Var
    start: Expr
    stop: Expr
    step: Expr
    iter_args: tuple[IterArg, ...]
    body: Stmt
    return_vars: tuple[Var, ...] = ()
    kind: ForKind = ForKind.Sequential
    attrs: tuple[tuple[str, Any], ...] = ()
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)
    comments: tuple[str, ...] = field(default=(), compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class WhileStmt(Stmt):
    iter_args: tuple[IterArg, ...]
    condition: Expr
    body: Stmt
    return_vars: tuple[Var, ...] = ()
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)
    comments: tuple[str, ...] = field(default=(), compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class BreakStmt(Stmt):
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)
    comments: tuple[str, ...] = field(default=(), compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class ContinueStmt(Stmt):
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)
    comments: tuple[str, ...] = field(default=(), compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class ScopeStmt(Stmt):
    """`with pl.scope()/pl.at(...)/pl.cluster()/pl.spmd(n):` — transparent to SSA.

    `args` holds the scope call's keyword arguments as printed (e.g. ("level", Level.CORE_GROUP)).
    `task_id` is the Scalar[TASK_ID] Var that `with pl.at(...) as tid:` / `with pl.spmd(...) as
    tid:` binds: the id of the task the scope's body runs as, a definition visible after the scope.
    """

    kind: ScopeKind
    body: Stmt
    args: tuple[tuple[str, Any], ...] = ()
    task_id: Var | None = None
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)
    comments: tuple[str, ...] = field(default=(), compare=False, kw_only=True)


# The closed set of statement kinds. A `match` over `stmt_kind(s)` that ends in
# `case _: assert_never(s)` makes mypy name every such match when a kind is added here
# (tests/test_traverse.py checks this union lists every subclass of Stmt).
StmtKind = (AssignStmt | EvalStmt | ReturnStmt | YieldStmt | SeqStmts | IfStmt | ForStmt | WhileStmt
            | BreakStmt | ContinueStmt | ScopeStmt)


def stmt_kind(s: Stmt) -> StmtKind:
    """`s` typed as the union of the statement kinds (the IR's fields are typed `Stmt`)."""
    # A bare return, not `typing.cast`: this runs for every node a pass visits, and `cast` is a
    # Python-level call.
    return s  # type: ignore[return-value]


def _splice(stmts: Iterable[Stmt], out: list[Stmt]) -> None:
    """Append `stmts` to `out` with nested SeqStmts spliced in place (no list per statement)."""
    for s in stmts:
        if type(s) is SeqStmts:
            _splice(s.stmts, out)
        else:
            out.append(s)


def flatten_body(body: Stmt | None) -> list[Stmt]:
    """The statements of a body as a flat list (nested SeqStmts are spliced)."""
    if body is None:
        return []
    out: list[Stmt] = []
    _splice((body,), out)
    return out


def make_body(stmts: list[Stmt] | tuple[Stmt, ...]) -> Stmt:
    """Normalised body: one statement stands alone, several form one flat SeqStmts."""
    flat: list[Stmt] = []
    _splice(stmts, flat)
    if len(flat) == 1:
        return flat[0]
    return SeqStmts(tuple(flat))
