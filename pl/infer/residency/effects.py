"""Effect screening of phase 4 (ops.md section 9): ordering boundaries and prefix-closing effects.

Guarantees: `ordering_boundary(e)` is True for a Submit, a call of a program function or any other
non-builtin op, an op the registry does not know, and a SyncOp / CrossCoreOp; TaskOp and ordinary
tile / tensor ops are not boundaries. `closes_prefix(stmt)` is True for a statement whose value is a
DCE side-effect op (`OpDef.keep`, or Submit) or an ordering boundary; categories are the op
records'.
"""

from __future__ import annotations

from typing_extensions import assert_never

from pl.infer.residency.ir import callee_name
from pl.ir.expr import Call, Expr, GlobalVar, is_submit
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
from pl.ops.registry import get_op

_BUILTIN_PREFIXES = ("tile.", "tensor.", "system.", "array.")


def is_builtin(name: str) -> bool:
    return name.startswith(_BUILTIN_PREFIXES) or name == "pld.system.get_comm_ctx"


def op_category(name: str) -> str | None:
    """The registry category of an op name, None when the op is unknown."""
    op = get_op(name)
    return op.category if op is not None else None


def survives_dce(name: str) -> bool:
    """An op whose statement survives dead-code elimination for its effect (the `keep` word of
    its effects column; reference dce::IsSideEffectOp)."""
    op = get_op(name)
    return op is not None and op.keep


def ordering_boundary(e: Expr) -> bool:
    """Could moving a load across this call (from an earlier iteration) reorder an effect?"""
    if is_submit(e):
        return True
    if not isinstance(e, Call):
        return False
    # A function call may hide a fence: interprocedural summaries are not available.
    if isinstance(e.op, GlobalVar) or not is_builtin(e.op.name):
        return True
    category = op_category(e.op.name)
    return category is None or category in ("SyncOp", "CrossCoreOp")


def closes_prefix(stmt: Stmt) -> bool:
    """Does this non-candidate statement end the hoistable prefix of a loop body?"""
    s = stmt_kind(stmt)
    match s:
        case AssignStmt(value=value) | EvalStmt(expr=value):
            if is_submit(value):
                return True
            if isinstance(value, Call):
                return survives_dce(callee_name(value)) or ordering_boundary(value)
            return False
        case ReturnStmt() | YieldStmt() | SeqStmts() | IfStmt() | ForStmt() | WhileStmt() \
                | ScopeStmt() | BreakStmt() | ContinueStmt():
            return True  # control flow and returns end the prefix
        case _:
            assert_never(s)
