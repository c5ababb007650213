"""Break and continue become structured control flow (the reference's CtrlFlowTransform), the first
step of SSA conversion.

Why: SSA form has no way to say "leave this iteration with these values". A loop that carries a
value (a name rebound in its body, or an explicit `init_values` carry) must yield the value that is
current where the iteration ends, and a `continue` or `break` in the middle of the body ends it
early. So before versioning, every `pl.range`/`while` loop whose own body (not a nested loop's)
holds a `break` or `continue` is rewritten so that its body always runs to its end:

* `continue` sets a flag `continue_flag = True`, `break` sets `break_flag = True`; the statements
  after a statement that may have escaped run under `if not continue_flag:` (or `not break_flag`,
  or both). Statements after the escape in the same block are unreachable and dropped.
* An `if` one of whose branches ends in the escape takes the rest of its block into its other
  branch instead (`if c: continue` + rest -> `if c: ... else: rest`), with no guard.
* `break_flag` starts False before the loop; a `while` loop's condition becomes
  `cond and not break_flag`, and a `pl.range` loop's body runs under `if not break_flag:` (the
  remaining trips do nothing, so the loop stays a `pl.range` with its kind and attributes).
* An explicit carry keeps the pl semantics of an early exit: `continue` and `break` hand the
  iter args on unchanged. The body's trailing `pl.yield_(v, ...)` becomes `t = iter_arg` at the
  start of the body, `t = v` at the end of the path that reaches the yield, and `pl.yield_(t, ...)`.
* A flag no guard reads is not emitted.
* A break/continue inside an `if` whose branches yield values (`x = pl.yield_(...)` in both) is a
  located PlError: the path that leaves early would give that if no values.

Guarantees: the input is never mutated; a program without break/continue comes back as the same
object; the result computes what the input computed (tests/test_equivalence.py and the property
tests generate loops with break and continue in branches).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from typing_extensions import assert_never

from pl.errors import PlError
from pl.ir import (
    AssignStmt,
    BinaryExpr,
    BreakStmt,
    ConstBool,
    ContinueStmt,
    DType,
    EvalStmt,
    Expr,
    ForStmt,
    IfStmt,
    ReturnStmt,
    ScalarType,
    ScopeStmt,
    SeqStmts,
    Stmt,
    UnaryExpr,
    Var,
    WhileStmt,
    YieldStmt,
    flatten_body,
    make_body,
)
from pl.ir.operators import BinaryOp, UnaryOp
from pl.ir.span import Span
from pl.ir.stmt import stmt_kind
from pl.ir.traverse import child_bodies, map_stmt, stmt_defs, walk_stmts

__all__ = ["fold_early_returns", "lower_break_continue", "never_falls_through"]

_BOOL = ScalarType(DType.BOOL)


def lower_break_continue(body: Stmt) -> Stmt:
    """`body` with every loop's break/continue made structured (see the module docstring)."""
    if not any(isinstance(s, BreakStmt | ContinueStmt) for s in walk_stmts(body)):
        return body
    return _Lowering(body).stmt(body)


def never_falls_through(s: Stmt | None) -> bool:
    """`s` never falls through: every path through it ends in a `return`."""
    if s is None:
        return False
    k = stmt_kind(s)
    match k:
        case ReturnStmt():
            return True
        case SeqStmts():
            return any(never_falls_through(c) for c in k.stmts)
        case IfStmt():
            return never_falls_through(k.then_body) and never_falls_through(k.else_body)
        case ScopeStmt():
            return never_falls_through(k.body)
        case ForStmt() | WhileStmt():
            return False  # a loop may run no iteration (and a return in one is refused)
        case AssignStmt() | EvalStmt() | YieldStmt() | BreakStmt() | ContinueStmt():
            return False
        case _:
            assert_never(k)


def fold_early_returns(body: Stmt) -> Stmt:
    """`body` with the statements that follow an `if` that may return copied into each of its
    paths that falls through (`if c: ...; return x` + rest -> `if c: ...; return x` `else: rest`;
    nested ifs alike, so a tail reached from several paths is copied into each).

    Why: SSA form scopes a value to the branch that defines it, and only a phi carries one out of
    an `if`; a path that returns gives no value to a phi. With the rest of the block inside every
    path that falls through, what a path defines is in scope wherever it is used, and an `if` that
    may return never needs a phi. A program without a `return` in an `if` comes back as the same
    object."""
    k = stmt_kind(body)
    match k:
        case SeqStmts():
            return _fold_seq(k)
        case IfStmt():
            if k.return_vars:
                first = next((x for x in walk_stmts(k) if type(x) is ReturnStmt), None)
                if first is not None:
                    # Its branches end in the yield of its results: the path that returns gives
                    # them no value, and SSA has no phi for a value only some paths give.
                    raise PlError("'return' inside an if whose branches yield values (pl.yield_) "
                                  "is not supported", first.span,
                                  hint="move the 'return' out of that if, or compute the values "
                                       "with plain assignments in the branches instead of "
                                       "pl.yield_")
            return map_stmt(k, body=fold_early_returns)
        case ScopeStmt():
            return map_stmt(k, body=fold_early_returns)
        case ForStmt() | WhileStmt():
            return k  # (a `return` inside a loop is refused by the frontend)
        case AssignStmt() | EvalStmt() | ReturnStmt() | YieldStmt() | BreakStmt() | ContinueStmt():
            return k
        case _:
            assert_never(k)


def _fold_seq(body: SeqStmts) -> Stmt:
    stmts = body.stmts
    for i, c in enumerate(stmts):
        if type(c) is IfStmt and not c.return_vars and i + 1 < len(stmts) \
                and not never_falls_through(c) and any(type(x) is ReturnStmt for x in walk_stmts(c)):
            head = [fold_early_returns(x) for x in stmts[:i]]
            # (the tail is sliced here only: slicing it at every statement is quadratic)
            return dataclasses.replace(body, stmts=(*head, _with_tail(c, stmts[i + 1:])))
    out = [fold_early_returns(x) for x in stmts]
    return body if all(a is b for a, b in zip(out, stmts, strict=True)) else \
        dataclasses.replace(body, stmts=tuple(out))


def _with_tail(s: IfStmt, rest: tuple[Stmt, ...]) -> IfStmt:
    """`s` with `rest` appended to each branch that may fall through (a missing else gets it)."""
    def branch(b: Stmt | None) -> Stmt | None:
        if b is not None and never_falls_through(b):
            return fold_early_returns(b)
        stmts = (*flatten_body(b), *rest) if b is not None else rest
        return fold_early_returns(SeqStmts(tuple(stmts), span=s.span))

    then_body = branch(s.then_body)
    assert then_body is not None
    return dataclasses.replace(s, then_body=then_body, else_body=branch(s.else_body))


class _Lowering:
    """One function body's lowering: the names it has used, so every flag and carry temp it makes
    has a name of its own (SSA matches a use after a loop to a definition in it by name)."""

    def __init__(self, body: Stmt) -> None:
        self.names = {v.name for s in walk_stmts(body) for v in stmt_defs(s)}

    def fresh(self, base: str) -> str:
        name, n = base, 0
        while name in self.names:
            n += 1
            name = f"{base}_{n}"
        self.names.add(name)
        return name

    def stmt(self, body: Stmt) -> Stmt:
        """`body` with its loops restructured, inner loops first."""
        k = stmt_kind(body)
        match k:
            case SeqStmts():
                new = map_stmt(k, body=self.stmt)
                if new is k:
                    return k
                # A restructured loop may come back as `break_flag = False` + the loop: spliced in.
                return dataclasses.replace(k, stmts=tuple(flatten_body(new)))
            case IfStmt() | ScopeStmt():
                return map_stmt(k, body=self.stmt)
            case ForStmt() | WhileStmt():
                inner = self.stmt(k.body)  # inner loops first
                if not _escapes(inner):
                    return k if inner is k.body else dataclasses.replace(k, body=inner)
                return _restructure(k, inner, self)
            case AssignStmt() | EvalStmt() | ReturnStmt() | YieldStmt() | BreakStmt() | ContinueStmt():
                return k
            case _:
                assert_never(k)


def _escapes(s: Stmt) -> bool:
    """`s` holds a break or continue of the loop around it (nested loops' own are not counted)."""
    k = stmt_kind(s)
    match k:
        case BreakStmt() | ContinueStmt():
            return True
        case SeqStmts() | IfStmt() | ScopeStmt():
            return any(_escapes(c) for c in child_bodies(k))
        case ForStmt() | WhileStmt():
            return False  # its breaks and continues are its own
        case AssignStmt() | EvalStmt() | ReturnStmt() | YieldStmt():
            return False
        case _:
            assert_never(k)


@dataclass
class _Flags:
    """The flags of one loop being restructured, and which of them a guard reads."""

    span: Span
    names: _Lowering
    brk: Var | None = None
    cont: Var | None = None
    read: set[str] = field(default_factory=set)

    def set_flag(self, s: BreakStmt | ContinueStmt) -> AssignStmt:
        if isinstance(s, BreakStmt):
            if self.brk is None:
                self.brk = Var(self.names.fresh("break_flag"), _BOOL, span=self.span)
            var = self.brk
        else:
            if self.cont is None:
                self.cont = Var(self.names.fresh("continue_flag"), _BOOL, span=self.span)
            var = self.cont
        return AssignStmt(var, ConstBool(True), span=s.span, comments=s.comments)

    def guard(self) -> Expr:
        """`not (continue_flag or break_flag)` over the flags set so far."""
        flags = [v for v in (self.cont, self.brk) if v is not None]
        self.read.update(v.name for v in flags)
        cond: Expr = flags[0]
        for v in flags[1:]:
            cond = BinaryExpr(BinaryOp.Or, cond, v, DType.BOOL, span=self.span)
        return UnaryExpr(UnaryOp.Not, cond, DType.BOOL, span=self.span)


def _ends_in_escape(stmts: list[Stmt]) -> bool:
    return bool(stmts) and isinstance(stmts[-1], BreakStmt | ContinueStmt)


def _elim(stmts: list[Stmt], f: _Flags) -> list[Stmt]:
    """`stmts` without break/continue: escapes set flags, what follows a possible escape is
    guarded or taken into the non-escaping branch, what follows a certain escape is dropped."""
    out: list[Stmt] = []
    for i, s in enumerate(stmts):
        if isinstance(s, BreakStmt | ContinueStmt):
            out.append(f.set_flag(s))
            return out  # the rest of the block is unreachable
        if not _escapes(s):
            out.append(s)
            continue
        rest = stmts[i + 1:]
        if isinstance(s, IfStmt) and s.return_vars:
            # Its branches end in the yield of its results: a path that leaves the iteration
            # before that yield has no value to give them.
            first = next(x for x in walk_stmts(s) if isinstance(x, BreakStmt | ContinueStmt))
            word = "break" if isinstance(first, BreakStmt) else "continue"
            raise PlError(f"'{word}' inside an if whose branches yield values (pl.yield_) is not "
                          "supported", first.span,
                          hint=f"move the '{word}' out of that if, or compute the values with plain "
                               "assignments in the branches instead of pl.yield_")
        if isinstance(s, IfStmt):
            tb, eb = flatten_body(s.then_body), flatten_body(s.else_body)
            if _ends_in_escape(tb) or _ends_in_escape(eb):
                # One branch leaves the iteration: the rest of the block belongs to the other.
                then_out = _elim(tb if _ends_in_escape(tb) else tb + rest, f)
                else_out = _elim(eb if _ends_in_escape(eb) else eb + rest, f)
                out.append(dataclasses.replace(s, then_body=make_body(then_out),
                                               else_body=make_body(else_out) if else_out else None))
                return out
            new_if = dataclasses.replace(s, then_body=make_body(_elim(tb, f)),
                                         else_body=make_body(_elim(eb, f)) if eb else None)
            out.append(new_if)
        else:
            assert isinstance(s, ScopeStmt)
            out.append(dataclasses.replace(s, body=make_body(_elim(flatten_body(s.body), f))))
        tail = _elim(rest, f)
        if tail:
            out.append(IfStmt(f.guard(), make_body(tail), span=s.span))
        return out
    return out


def _drop_unread(stmts: list[Stmt], f: _Flags) -> list[Stmt]:
    """The flag assignments of flags no guard reads, removed (they would be dead code)."""
    dead = {v for v in (f.brk, f.cont) if v is not None and v.name not in f.read}
    if not dead:
        return stmts
    def body(b: Stmt) -> Stmt:
        return make_body(_drop_unread(flatten_body(b), f))

    out: list[Stmt] = []
    for stmt in stmts:
        s = stmt_kind(stmt)
        match s:
            case AssignStmt():
                if s.var in dead:
                    continue
            case IfStmt() | ScopeStmt():
                s = map_stmt(s, body=body)
            case ForStmt() | WhileStmt():
                pass  # a nested loop's flags are its own (restructured before this one)
            case SeqStmts() | EvalStmt() | ReturnStmt() | YieldStmt() | BreakStmt() | ContinueStmt():
                pass
            case _:
                assert_never(s)
        out.append(s)
    return out


def _restructure(loop: ForStmt | WhileStmt, body: Stmt, names: _Lowering) -> Stmt:
    f = _Flags(loop.span, names)
    stmts = flatten_body(body)
    last = stmts[-1] if stmts else None
    trailing = last if isinstance(last, YieldStmt) else None
    if trailing is not None:
        stmts.pop()
    pre: list[Stmt] = []
    post: list[Stmt] = []
    if trailing is not None:
        # An early exit hands the iter args on unchanged; the path reaching the yield hands on
        # its values.
        temps = [Var(names.fresh(f"{ia.name}_next"), ia.type, span=loop.span)
                 for ia in loop.iter_args]
        if len(temps) != len(trailing.values):  # not a loop carry: keep the yield as it is
            temps = []
        pre = [AssignStmt(t, ia, span=loop.span) for t, ia in zip(temps, loop.iter_args, strict=True)]
        stmts += [AssignStmt(t, v, span=trailing.span) for t, v in zip(temps, trailing.values,
                                                                       strict=True)]
        post = [dataclasses.replace(trailing, values=tuple(temps))] if temps else [trailing]
    core = _elim(stmts, f)
    if f.brk is not None:
        f.read.add(f.brk.name)  # the loop itself reads it
    core = _drop_unread(core, f)
    if f.cont is not None and f.cont.name in f.read:
        core.insert(0, AssignStmt(f.cont, ConstBool(False), span=loop.span))
    before: list[Stmt] = []
    if f.brk is not None:
        before.append(AssignStmt(f.brk, ConstBool(False), span=loop.span))
        not_broken = UnaryExpr(UnaryOp.Not, f.brk, DType.BOOL, span=loop.span)
        if isinstance(loop, WhileStmt):
            cond = BinaryExpr(BinaryOp.And, loop.condition, not_broken, DType.BOOL, span=loop.span)
            new_loop: Stmt = dataclasses.replace(loop, condition=cond,
                                                 body=make_body(pre + core + post))
        else:
            guarded = IfStmt(not_broken, make_body(core), span=loop.span)
            new_loop = dataclasses.replace(loop, body=make_body([*pre, guarded, *post]))
    else:
        new_loop = dataclasses.replace(loop, body=make_body(pre + core + post))
    return make_body([*before, new_loop]) if before else new_loop
