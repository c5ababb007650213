"""Small shared helpers of the memory-space inference phases.

Guarantees: pure functions over the frozen IR; the two value matchers of pass.md section 0 are here
so every phase uses the same one: `var_only` (exactly a Var, never an IterArg) and `var_like` (Var or
IterArg).
"""

from __future__ import annotations

from pl.ir.enums import MemorySpace
from pl.ir.expr import Call, GlobalVar, IterArg, Var
from pl.ir.stmt import (
    AssignStmt,
    EvalStmt,
    Stmt,
)
from pl.ir.traverse import walk_stmts
from pl.ops.registry import OpDef, get_op


def var_only(e: object) -> Var | None:
    """`e` when it is a plain Var (C++ `As<Var>`: an IterArg does not match)."""
    return e if type(e) is Var else None


def var_like(e: object) -> Var | None:
    """`e` when it is a Var or an IterArg (C++ `AsVarLike`)."""
    return e if isinstance(e, (Var, IterArg)) else None


Constraints = tuple[tuple[MemorySpace, ...], ...]
OpFacts = tuple[OpDef | None, Constraints]
_NO_FACTS: OpFacts = (None, ())


def op_facts(call: Call) -> OpFacts:
    """(registered op or None, allowed spaces per positional arg) of a call, in one look-up."""
    op = call.op
    if type(op) is GlobalVar:
        return _NO_FACTS
    opdef = get_op(op.name)
    if opdef is None or not opdef.has_memory_spec:
        return (opdef, ())
    return (opdef, opdef.input_constraints)


def input_constraints(call: Call) -> Constraints:
    """Allowed spaces per positional arg of a registered op's call (empty when none)."""
    return op_facts(call)[1]


CallSite = tuple[Stmt, Call, OpDef | None, Constraints]


def call_sites(body: Stmt | None) -> list[CallSite]:
    """(statement, its top-level call, op, constraints) for every statement of `body` that
    evaluates a Call at top level, pre-order: phases 0 and 2 share one walk of the body."""
    sites: list[CallSite] = []
    for stmt in walk_stmts(body):
        call = top_level_call(stmt)
        if call is not None:
            op, constraints = op_facts(call)
            sites.append((stmt, call, op, constraints))
    return sites


def top_level_call(stmt: Stmt) -> Call | None:
    """The Call an AssignStmt / EvalStmt evaluates at top level (nested calls do not count).

    Asked of every statement by several phases: exact type tests, no class patterns (the IR
    classes have no subclasses)."""
    kind = type(stmt)
    if kind is AssignStmt:
        value = stmt.value  # type: ignore[attr-defined]
    elif kind is EvalStmt:
        value = stmt.expr  # type: ignore[attr-defined]
    else:
        return None
    return value if type(value) is Call else None


