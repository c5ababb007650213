"""The TileMemoryInferred property check (pass.md section 5).

Guarantees: `verify_tile_memory_inferred(program)` returns one located PlError per violation, in
program order, and raises nothing: (1) in an InCore/AIC/AIV function, an AssignStmt whose LHS, or
a parameter whose type, is a TileType without a memory space (located at the var), or a tile op
nested in a statement's expressions whose result is (located at the call), (2) in a function of
ANY kind, a constrained argument of ANY call (top level or nested in another call's arguments; a
Var, an IterArg or a call) whose TileType has a space outside the allowed list (located at the
call): a tile op outside the functions inference places (an Orchestration or Opaque function's
statements outside its `pl.at` scopes, which compilation outlines into InCore functions) is
checked too, so no tile escapes the property by where it stands. A
call of a program function is constrained by the spaces of the callee's Tile parameters
(`infer.common.callee_spaces`). The reference checks only the plain Vars of top-level op calls;
checking every one makes a move inference missed an error, never silent. Values without a space
are not checked by rule 2. `misplaced_arguments` is rule 2 for one statement: inference also
asks it of the calls of functions it does not transform, where a violation is the kernel's
(nothing there inserts moves) and a located error.
"""

from __future__ import annotations

from collections.abc import Iterator

from pl.errors import PlError
from pl.infer.common import Callees, callee_spaces, input_constraints, nested_calls
from pl.ir.expr import Call, GlobalVar
from pl.ir.function import Function, Program
from pl.ir.names import user_name
from pl.ir.stmt import AssignStmt, Stmt
from pl.ir.traverse import stmt_exprs, walk_exprs, walk_stmts
from pl.ir.types import TileType

RULE = "TileMemoryInferred"


def _verify_function(f: Function, callees: Callees) -> list[PlError]:
    errors: list[PlError] = []
    for p in f.params:
        if isinstance(p.type, TileType) and p.type.memory_space is None:
            errors.append(PlError(
                f"InCore function '{f.name}': Tile parameter '{user_name(p.name)}' has no "
                f"memory_space set",
                p.span, note=f"rule {RULE}"))
    for stmt in walk_stmts(f.body):
        if isinstance(stmt, AssignStmt):
            t = stmt.var.type
            if isinstance(t, TileType) and t.memory_space is None:
                span = stmt.var.span if stmt.var.span.line > 0 else stmt.span
                errors.append(PlError(
                    f"InCore function '{f.name}': TileType variable '{stmt.var.name}' has no "
                    f"memory_space set", span, note=f"rule {RULE}"))
        for call in nested_calls(stmt):
            t = call.result_type
            if isinstance(t, TileType) and t.memory_space is None:
                span = call.span if call.span.line > 0 else stmt.span
                errors.append(PlError(
                    f"InCore function '{f.name}': the TileType result of '{call.op_name}' nested in "
                    f"a statement has no memory_space set", span, note=f"rule {RULE}"))
        errors.extend(misplaced_arguments(f, stmt, callees))
    return errors


def misplaced_arguments(f: Function, stmt: Stmt, callees: Callees) -> list[PlError]:
    """Rule 2 over the calls `stmt` evaluates."""
    errors: list[PlError] = []
    for call in _calls(stmt):
        for i, allowed in enumerate(input_constraints(call, callees)[: len(call.args)]):
            arg = call.args[i]
            if not allowed or not isinstance(arg.type, TileType):
                continue
            space = arg.type.memory_space
            if space is not None and space not in allowed:
                span = call.span if call.span.line > 0 else stmt.span
                what = user_name(str(getattr(arg, "name", None) or getattr(arg, "op_name", "a value")))
                kind = "Function" if type(call.op) is GlobalVar else "Op"
                errors.append(PlError(
                    f"{f.func_type.name} function '{f.name}': {kind} '{call.op_name}' input {i} "
                    f"('{what}') requires {'/'.join(s.name for s in allowed)} but is in "
                    f"{space.name}", span, note=f"rule {RULE}"))
    return errors


def _calls(stmt: Stmt) -> Iterator[Call]:
    """Every call a statement evaluates itself, nested ones included (outermost first)."""
    for root in stmt_exprs(stmt):
        for e in walk_exprs(root):
            if isinstance(e, Call):
                yield e


def verify_tile_memory_inferred(program: Program) -> list[PlError]:
    errors: list[PlError] = []
    callees = callee_spaces(program)
    for f in program.functions:
        if f.func_type.is_incore_kind():
            errors.extend(_verify_function(f, callees))
        else:
            for stmt in walk_stmts(f.body):
                errors.extend(misplaced_arguments(f, stmt, callees))
    return errors
