"""UnrollLoops (the reference's pass of that name): every `pl.unroll` loop becomes its body, once
per iteration. It runs first in the default pipeline, before SSA conversion, as in the reference.

Guarantees:
- A `for i in pl.unroll(a, b, s)` loop (ForKind.Unroll) is replaced by one copy of its body per
  iteration, in iteration order, with `i` replaced by that iteration's `ConstInt` (INDEX) in every
  expression and in the types calls carry. Definitions keep their Vars, as the reference's pass
  keeps them, so the SSA conversion after it versions the copies like straight-line code: a name
  rebound in the body (`acc = pl.add(acc, x)`) chains through the copies instead of needing loop
  carries, which `pl.unroll` does not take.
- Copies of a nested unroll loop are unrolled too; other loops, ifs and scopes inside are copied
  with the loop variable substituted and otherwise left alone.
- A loop with no iteration becomes an empty body; the loop's leading comments go to the first
  statement of its first copy, so a comment is never lost while there is a statement to hold it.
  A value bound only in the body of a loop with no iteration and read after it is a PlError at
  the read (it never has a value, as in Python).
- A zero step, bounds that are not integer constants, carried values (`init_values`), more than
  1024 iterations, or a `break` / `continue` of the unrolled loop itself are PlErrors located at the
  loop or the statement (the frontend already rejects the first three in parsed programs).
- The statements unrolling makes in a program, in all, are bounded (`MAX_UNROLLED_STATEMENTS`,
  every statement of every copy, nested loops' copies included): the per-loop limit alone let
  three nested `pl.unroll(1024)` loops ask for 2^30 copies (3.9 GB before failing). Past the
  budget, a PlError at the outermost unroll loop of the nest being expanded names the limit;
  the copies are counted as they are made, so the pass never holds much more than the budget.
- A function without unroll loops comes back as the same object, and so does a program without any.
"""

from __future__ import annotations

import dataclasses

from pl.errors import PlError
from pl.ir.enums import DType, ForKind
from pl.ir.expr import ConstInt, Expr, Var
from pl.ir.fold import fold_expr
from pl.ir.function import Function, Program
from pl.ir.stmt import BreakStmt, ContinueStmt, ForStmt, SeqStmts, Stmt, WhileStmt, flatten_body, make_body
from pl.ir.traverse import (
    child_bodies,
    map_stmt,
    stmt_defs,
    stmt_exprs,
    walk_exprs,
    walk_stmts,
)
from pl.lowering.ssa.support import Substituter

__all__ = ["MAX_UNROLLED_STATEMENTS", "MAX_UNROLL_ITERATIONS", "unroll_loops"]

MAX_UNROLL_ITERATIONS = 1024  # the reference's limit: beyond it, a pl.range loop is what is meant
MAX_UNROLLED_STATEMENTS = 1 << 16  # statements unrolling may make in a program, in all


class _Budget:
    """What is left of a program's `MAX_UNROLLED_STATEMENTS`, and the outermost unroll loop being
    expanded (where running out is reported)."""

    def __init__(self) -> None:
        self.left = MAX_UNROLLED_STATEMENTS
        self.nest: ForStmt | None = None

    def spend(self, copy: Stmt) -> None:
        self.left -= sum(1 for s in walk_stmts(copy) if not isinstance(s, SeqStmts))
        if self.left < 0:
            assert self.nest is not None
            raise PlError(f"pl.unroll loops expand to more than {MAX_UNROLLED_STATEMENTS} "
                          "statements in all (pl's limit on the statements unrolling makes in a "
                          "program; nested unroll loops multiply)", span=self.nest.span,
                          hint="use pl.range for the outer loops, or unroll fewer iterations")


def unroll_loops(program: Program) -> Program:
    """`program` with every unroll loop of every function expanded."""
    budget = _Budget()
    functions = tuple(_unroll_function(f, budget) for f in program.functions)
    if all(a is b for a, b in zip(functions, program.functions, strict=True)):
        return program
    return dataclasses.replace(program, functions=functions)


def _unroll_function(f: Function, budget: _Budget) -> Function:
    dropped: set[Var] = set()
    body = _unroll_in(f.body, dropped, budget)
    if dropped:
        _check_dropped_unread(f, body, dropped)
    return f if body is f.body else dataclasses.replace(f, body=body)


def _check_dropped_unread(f: Function, body: Stmt, dropped: set[Var]) -> None:
    """Raise at the first read of a Var that only the bodies of loops with no iteration bound."""
    dead = dropped - set(f.params) - {v for st in walk_stmts(body) for v in stmt_defs(st)}
    for st in walk_stmts(body):
        for e in stmt_exprs(st):
            for sub in walk_exprs(e):
                if isinstance(sub, Var) and sub in dead:
                    raise PlError(f"'{sub.name}' is bound only inside a pl.unroll loop that runs "
                                  "no iteration, so it has no value here", st.span,
                                  hint=f"assign '{sub.name}' before the loop")


def _unroll_in(s: Stmt, dropped: set[Var], budget: _Budget) -> Stmt:
    """`s` with the unroll loops in it expanded; `s` itself when it holds none. The Vars bound
    in the body of a loop with no iteration are added to `dropped`."""
    if isinstance(s, ForStmt) and s.kind is ForKind.Unroll:
        if budget.nest is not None:
            return _expand(s, dropped, budget)
        budget.nest = s
        try:
            return _expand(s, dropped, budget)
        finally:
            budget.nest = None
    if isinstance(s, SeqStmts):
        parts = [_unroll_in(x, dropped, budget) for x in s.stmts]
        if all(a is b for a, b in zip(parts, s.stmts, strict=True)):
            return s
        # An expanded loop's copies join the sequence around it: one flat body, as the frontend
        # builds bodies, so later passes never see a SeqStmts nested in a SeqStmts.
        flat = make_body(parts)
        return dataclasses.replace(s, stmts=tuple(flatten_body(flat)))
    return map_stmt(s, body=lambda b: _unroll_in(b, dropped, budget))


def _constant(e: Expr, what: str, loop: ForStmt) -> int:
    if isinstance(e, ConstInt):
        return e.value
    raise PlError(f"pl.unroll's {what} must be an integer constant", span=loop.span)


def _expand(loop: ForStmt, dropped: set[Var], budget: _Budget) -> Stmt:
    if loop.iter_args:
        raise PlError("pl.unroll does not take init_values: a name rebound in the body is carried "
                      "from one copy to the next by itself", span=loop.span)
    start = _constant(loop.start, "start", loop)
    stop = _constant(loop.stop, "stop", loop)
    step = _constant(loop.step, "step", loop)
    if step == 0:
        raise PlError("Loop step must not be zero", span=loop.span)
    indices = range(start, stop, step)
    if len(indices) > MAX_UNROLL_ITERATIONS:
        raise PlError(f"pl.unroll runs {len(indices)} iterations, more than the "
                      f"{MAX_UNROLL_ITERATIONS} it may unroll; use pl.range for a loop this long",
                      span=loop.span)
    _reject_own_jumps(loop.body)
    if not indices:
        dropped.update(v for st in walk_stmts(loop.body) for v in stmt_defs(st))
    copies: list[Stmt] = []
    for i in indices:
        value = ConstInt(i, DType.INDEX, span=loop.loop_var.span)
        copy = _substitute(loop.body, loop.loop_var, value)
        budget.spend(copy)
        copies.extend(flatten_body(_unroll_in(copy, dropped, budget)))
    if copies and loop.comments:
        first = copies[0]  # every statement kind carries comments; Stmt the base does not say so
        copies[0] = dataclasses.replace(first, comments=loop.comments + first.comments)  # type: ignore[type-var]
    return SeqStmts(tuple(copies), span=loop.span)


class _Folding(Substituter):
    """A Substituter that folds the integer arithmetic a substitution made constant, in
    expressions and in the types they carry alike (a copy's `[(i + 1) * 16, 128]` tile is a
    `[32, 128]` one, as the frontend types what the user writes with constants)."""

    def expr(self, e: Expr) -> Expr:
        new = super().expr(e)
        return e if new is e else fold_expr(new)


def _substitute(s: Stmt, var: Var, value: Expr) -> Stmt:
    """`s` with every use of `var` (in expressions and the types they carry) replaced by `value`,
    and the integer arithmetic that thereby became constant folded in its dtype, as the frontend
    folds what the user writes (so the printed copy reads back as the same program) and as the
    interpreter computes it (`i * 2**62` wraps as the INDEX the loop computes)."""
    sub = _Folding({var: value})

    def stmt(x: Stmt) -> Stmt:
        return map_stmt(x, body=stmt, expr=sub.expr)

    return stmt(s)


def _reject_own_jumps(body: Stmt) -> None:
    """A `break`/`continue` that would leave the unrolled loop itself has nothing to leave."""
    stack = [body]
    while stack:
        s = stack.pop()
        if isinstance(s, BreakStmt | ContinueStmt):
            word = "break" if isinstance(s, BreakStmt) else "continue"
            raise PlError(f"'{word}' is not supported in a pl.unroll loop: its iterations are "
                          "unrolled at compile time", span=s.span)
        if isinstance(s, ForStmt | WhileStmt):
            continue  # a jump in an inner loop leaves that loop, which stays a loop
        stack.extend(child_bodies(s))
