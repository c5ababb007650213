"""The TileMemoryInferred property check (pass.md section 5).

Guarantees: `verify_tile_memory_inferred(program)` returns one located PlError per violation in
InCore/AIC/AIV functions, in program order, and raises nothing: (1) an AssignStmt whose LHS is a
TileType without a memory space (located at the var), (2) a constrained argument of ANY op call
(top level or nested in another call's arguments; a Var, an IterArg or a call) whose TileType has a
space outside the allowed list (located at the call). The reference checks only the plain Vars of
top-level calls; checking every one makes a move inference missed an error, never silent. Values
without a space are not checked by rule 2.
"""

from __future__ import annotations

from collections.abc import Iterator

from infer.common import input_constraints
from pl.errors import PlError
from pl.ir.expr import Call
from pl.ir.function import Function, Program
from pl.ir.stmt import AssignStmt, Stmt
from pl.ir.traverse import stmt_exprs, walk_exprs, walk_stmts
from pl.ir.types import TileType

RULE = "TileMemoryInferred"


def _verify_function(f: Function) -> list[PlError]:
    errors: list[PlError] = []
    for stmt in walk_stmts(f.body):
        if isinstance(stmt, AssignStmt):
            t = stmt.var.type
            if isinstance(t, TileType) and t.memory_space is None:
                span = stmt.var.span if stmt.var.span.line > 0 else stmt.span
                errors.append(PlError(
                    f"InCore function '{f.name}': TileType variable '{stmt.var.name}' has no "
                    f"memory_space set", span, note=f"rule {RULE}"))
        for call in _calls(stmt):
            for i, allowed in enumerate(input_constraints(call)[: len(call.args)]):
                arg = call.args[i]
                if not allowed or not isinstance(arg.type, TileType):
                    continue
                space = arg.type.memory_space
                if space is not None and space not in allowed:
                    span = call.span if call.span.line > 0 else stmt.span
                    what = getattr(arg, "name", None) or getattr(arg, "op_name", "a value")
                    errors.append(PlError(
                        f"InCore function '{f.name}': Op '{call.op_name}' input {i} ('{what}') "
                        f"requires {'/'.join(s.name for s in allowed)} but is in {space.name}",
                        span, note=f"rule {RULE}"))
    return errors


def _calls(stmt: Stmt) -> Iterator[Call]:
    """Every call a statement evaluates itself, nested ones included (outermost first)."""
    for root in stmt_exprs(stmt):
        for e in walk_exprs(root):
            if isinstance(e, Call):
                yield e


def verify_tile_memory_inferred(program: Program) -> list[PlError]:
    errors: list[PlError] = []
    for f in program.functions:
        if f.func_type.is_incore_kind():
            errors.extend(_verify_function(f))
    return errors
