"""Small shared helpers of the memory-space inference phases.

Guarantees: pure functions over the frozen IR; the two value matchers of pass.md section 0 are here
so every phase uses the same one: `var_only` (exactly a Var, never an IterArg) and `var_like` (Var or
IterArg).
"""

from __future__ import annotations

from collections.abc import Iterator

from pl.ir.enums import MemorySpace
from pl.ir.expr import Call, Expr, GlobalVar, IterArg, Var
from pl.ir.stmt import (
    AssignStmt,
    EvalStmt,
    ForStmt,
    IfStmt,
    ScopeStmt,
    SeqStmts,
    Stmt,
    WhileStmt,
)
from pl.ir.types import TileType
from pl.ops.registry import OpDef, get_op


def var_only(e: object) -> Var | None:
    """`e` when it is a plain Var (C++ `As<Var>`: an IterArg does not match)."""
    return e if type(e) is Var else None


def var_like(e: object) -> Var | None:
    """`e` when it is a Var or an IterArg (C++ `AsVarLike`)."""
    return e if isinstance(e, (Var, IterArg)) else None


def registered_op(call: Call) -> OpDef | None:
    if isinstance(call.op, GlobalVar):
        return None
    return get_op(call.op.name)


def input_constraints(call: Call) -> tuple[tuple[MemorySpace, ...], ...]:
    """Allowed spaces per positional arg of a registered op's call (empty when none)."""
    op = registered_op(call)
    if op is None or not op.has_memory_spec:
        return ()
    return op.input_constraints


def top_level_call(stmt: Stmt) -> Call | None:
    """The Call an AssignStmt / EvalStmt evaluates at top level (nested calls do not count)."""
    match stmt:
        case AssignStmt(value=Call() as call):
            return call
        case EvalStmt(expr=Call() as call):
            return call
    return None


def tile_space(e: Expr) -> MemorySpace | None:
    """The memory space of an expression's TileType (None when unset or not a tile)."""
    t = e.type
    return t.memory_space if isinstance(t, TileType) else None


def walk_stmts(stmt: Stmt | None) -> Iterator[Stmt]:
    """Every statement of a body, pre-order, nested bodies in place (then before else)."""
    if stmt is None:
        return
    yield stmt
    match stmt:
        case SeqStmts(stmts=stmts):
            for s in stmts:
                yield from walk_stmts(s)
        case ForStmt(body=body) | WhileStmt(body=body) | ScopeStmt(body=body):
            yield from walk_stmts(body)
        case IfStmt(then_body=then_body, else_body=else_body):
            yield from walk_stmts(then_body)
            yield from walk_stmts(else_body)
