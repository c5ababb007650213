"""The one traversal of the IR: what a statement holds, walks over statements and expressions, and
the rebuild of a statement from mapped parts.

Guarantees:
- `child_bodies(s)` are the statement bodies directly inside `s`, in program order (a SeqStmts'
  statements; a loop's or scope's body; an if's then body, then its else body when present).
- `stmt_exprs(s)` are the expressions `s` holds directly, in evaluation order, nested bodies
  excluded: an assignment's value, an evaluated expression, returned/yielded values, an if's or
  while's condition, a for's start/stop/step, the initial values of iter args, and the scope
  arguments that are expressions (`pl.spmd(n)`'s `n`). One rule for initial values: an IterArg
  without one (`init is None`) contributes nothing, so every item is an `Expr`.
- `walk_stmts(s)` is every statement of a tree, pre-order (a SeqStmts itself included, then before
  else), with an explicit stack: no generator per statement and no recursion depth.
- `expr_children(e)` / `walk_exprs(e)`: the direct sub-expressions of an expression and all of them
  pre-order (Call arguments, then expression-valued kwargs and attrs, directly or in a tuple/list).
  Neither looks into types nor into an IterArg's initial value (that belongs to its definition).
- `map_stmt(s, body=..., expr=...)` rebuilds `s` with `body` applied to each child body and `expr`
  to each expression `stmt_exprs` lists except iter-arg initial values (those live inside the
  IterArg, a definition: a pass changing one makes a new IterArg and maps its uses itself). Binders
  (assigned vars, loop vars, iter args, return vars) are kept. When every part comes back as the
  very same object, `s` itself is returned; a rebuilt statement keeps its span and comments.
- Every `match` here ends in `assert_never`, so adding a kind to `StmtKind`/`ExprKind` makes mypy
  point at each place to handle it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from typing_extensions import assert_never

from pl.ir.expr import (
    BinaryExpr,
    Call,
    ConstBool,
    ConstFloat,
    ConstInt,
    Expr,
    MakeTuple,
    TupleGetItem,
    UnaryExpr,
    Var,
    expr_kind,
)
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
    stmt_kind,
)

__all__ = ["child_bodies", "expr_children", "map_stmt", "stmt_exprs", "walk_exprs", "walk_stmts"]


def child_bodies(s: Stmt) -> tuple[Stmt, ...]:
    """The statement bodies directly inside `s`, in program order."""
    k = stmt_kind(s)
    match k:
        case SeqStmts():
            return k.stmts
        case ForStmt() | WhileStmt() | ScopeStmt():
            return (k.body,)
        case IfStmt():
            return (k.then_body,) if k.else_body is None else (k.then_body, k.else_body)
        case AssignStmt() | EvalStmt() | ReturnStmt() | YieldStmt() | BreakStmt() | ContinueStmt():
            return ()
        case _:
            assert_never(k)


def _scope_exprs(args: tuple[tuple[str, Any], ...]) -> tuple[Expr, ...]:
    return tuple(v for _, v in args if isinstance(v, Expr))


def stmt_exprs(s: Stmt) -> tuple[Expr, ...]:
    """The expressions `s` holds directly, in evaluation order (see the module docstring)."""
    k = stmt_kind(s)
    match k:
        case AssignStmt():
            return (k.value,)
        case EvalStmt():
            return (k.expr,)
        case ReturnStmt() | YieldStmt():
            return k.values
        case IfStmt():
            return (k.condition,)
        case ForStmt():
            return (k.start, k.stop, k.step, *(ia.init for ia in k.iter_args if ia.init is not None))
        case WhileStmt():
            return (*(ia.init for ia in k.iter_args if ia.init is not None), k.condition)
        case ScopeStmt():
            return _scope_exprs(k.args)
        case SeqStmts() | BreakStmt() | ContinueStmt():
            return ()
        case _:
            assert_never(k)


def walk_stmts(s: Stmt | None) -> Iterator[Stmt]:
    """Every statement of the tree under `s` (itself included), pre-order; nothing for None."""
    if s is None:
        return
    stack: list[Stmt] = [s]
    while stack:
        top = stack.pop()
        yield top
        stack.extend(reversed(child_bodies(top)))


def _value_exprs(values: tuple[tuple[str, Any], ...]) -> Iterator[Expr]:
    """The expressions among kwargs/attrs values, directly or in a list/tuple (e.g. dump_vars)."""
    for _, v in values:
        if isinstance(v, Expr):
            yield v
        elif isinstance(v, (list, tuple)):
            yield from (x for x in v if isinstance(x, Expr))


def expr_children(e: Expr) -> Iterator[Expr]:
    """The direct sub-expressions of `e`, in argument order."""
    k = expr_kind(e)
    match k:
        case Call():
            yield from k.args
            yield from _value_exprs(k.kwargs)
            yield from _value_exprs(k.attrs)
        case MakeTuple():
            yield from k.elements
        case BinaryExpr():
            yield k.left
            yield k.right
        case UnaryExpr():
            yield k.operand
        case TupleGetItem():
            yield k.tuple_expr
        case Var() | ConstInt() | ConstFloat() | ConstBool():
            pass
        case _:
            assert_never(k)


def walk_exprs(e: Expr) -> Iterator[Expr]:
    """`e` and every expression inside it, pre-order (outer before inner)."""
    stack = [e]
    while stack:
        top = stack.pop()
        yield top
        stack.extend(reversed(tuple(expr_children(top))))


S = TypeVar("S", bound=Stmt)


def _same(new: tuple[Any, ...], old: tuple[Any, ...]) -> bool:
    return all(a is b for a, b in zip(new, old, strict=True))


def _identity(x: Any) -> Any:
    return x


def map_stmt(s: S, body: Callable[[Stmt], Stmt] = _identity,
             expr: Callable[[Expr], Expr] = _identity) -> S:
    """`s` with `body` applied to its child bodies and `expr` to its expressions, in evaluation
    order (expressions before the bodies they guard); `s` itself when nothing changed. The result
    is of the same kind as `s`."""
    k = stmt_kind(s)
    changes: dict[str, Any] = {}
    match k:
        case AssignStmt():
            changes["value"] = expr(k.value)
        case EvalStmt():
            changes["expr"] = expr(k.expr)
        case ReturnStmt() | YieldStmt():
            values = tuple([expr(v) for v in k.values])
            if not _same(values, k.values):
                changes["values"] = values
        case SeqStmts():
            stmts = tuple([body(c) for c in k.stmts])
            if not _same(stmts, k.stmts):
                changes["stmts"] = stmts
        case IfStmt():
            changes["condition"] = expr(k.condition)
            changes["then_body"] = body(k.then_body)
            changes["else_body"] = None if k.else_body is None else body(k.else_body)
        case ForStmt():
            changes["start"], changes["stop"], changes["step"] = expr(k.start), expr(k.stop), expr(k.step)
            changes["body"] = body(k.body)
        case WhileStmt():
            changes["condition"] = expr(k.condition)
            changes["body"] = body(k.body)
        case ScopeStmt():
            args = tuple([(n, expr(v) if isinstance(v, Expr) else v) for n, v in k.args])
            if not _same(tuple(v for _, v in args), tuple(v for _, v in k.args)):
                changes["args"] = args
            changes["body"] = body(k.body)
        case BreakStmt() | ContinueStmt():
            pass
        case _:
            assert_never(k)
    changed = {name: v for name, v in changes.items() if v is not getattr(s, name)}
    return dataclasses.replace(s, **changed) if changed else s  # type: ignore[type-var]
