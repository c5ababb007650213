"""The TileMemoryInferred property check (pass.md section 5).

Guarantees: `verify_tile_memory_inferred(program)` returns one located PlError per violation in
InCore/AIC/AIV functions, in program order, and raises nothing: (1) an AssignStmt whose LHS is a
TileType without a memory space (located at the var), (2) a constrained Var-only argument of a
top-level Call whose TileType has a space outside the allowed list (located at the call). Values
without a space and IterArgs are not checked by rule 2, as in the reference.
"""

from __future__ import annotations

from infer.common import input_constraints, top_level_call, var_only, walk_stmts
from pl.errors import PlError
from pl.ir.function import Function, Program
from pl.ir.stmt import AssignStmt
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
        call = top_level_call(stmt)
        if call is None:
            continue
        for i, allowed in enumerate(input_constraints(call)[: len(call.args)]):
            v = var_only(call.args[i])
            if not allowed or v is None or not isinstance(v.type, TileType):
                continue
            space = v.type.memory_space
            if space is not None and space not in allowed:
                span = call.span if call.span.line > 0 else stmt.span
                errors.append(PlError(
                    f"InCore function '{f.name}': Op '{call.op_name}' input {i} ('{v.name}') requires "
                    f"{'/'.join(s.name for s in allowed)} but is in {space.name}", span,
                    note=f"rule {RULE}"))
    return errors


def verify_tile_memory_inferred(program: Program) -> list[PlError]:
    errors: list[PlError] = []
    for f in program.functions:
        if f.func_type.is_incore_kind():
            errors.extend(_verify_function(f))
    return errors
