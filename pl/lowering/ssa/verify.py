"""The SSAForm property check.

`verify_ssa(program)` returns one message per violation (empty list: the program is in SSA form):
no Var assigned by more than one AssignStmt; no Var defined twice as a param / loop var / iter arg /
return var / assignment target (a param assigned once more is allowed, as in the reference); every
loop or if with return_vars ends each body in a yield of matching arity, with no earlier yield; a
loop has as many iter args as return vars; no use of a Var outside the scope that defines it (Vars
defined nowhere in the function, such as dynamic dims, are free and not checked).
"""

from __future__ import annotations

from collections import Counter

from typing_extensions import assert_never

from pl.ir import (
    AssignStmt,
    BreakStmt,
    ContinueStmt,
    EvalStmt,
    Expr,
    ForStmt,
    Function,
    IfStmt,
    Program,
    ReturnStmt,
    ScopeStmt,
    SeqStmts,
    Stmt,
    Var,
    WhileStmt,
    YieldStmt,
)
from pl.ir.stmt import stmt_kind
from pl.ir.traverse import stmt_defs, stmt_exprs, walk_stmts
from pl.lowering.ssa.support import is_transparent_scope, vars_used

__all__ = ["verify_ssa", "verify_function_ssa"]


def verify_ssa(program: Program) -> list[str]:
    out: list[str] = []
    for f in program.functions:
        out += verify_function_ssa(f)
    return out


def verify_function_ssa(func: Function) -> list[str]:
    return _Checker(func).run()


class _Checker:
    def __init__(self, func: Function) -> None:
        self.func = func
        self.errors: list[str] = []
        self.assigns: Counter[Var] = Counter()
        self.defs: Counter[Var] = Counter()
        self.all_defined: set[Var] = set(func.params)

    def err(self, msg: str) -> None:
        self.errors.append(f"{self.func.name}: {msg}")

    def run(self) -> list[str]:
        f = self.func
        self._collect_defs(f.body)
        for p in f.params:
            self.defs[p] += 1
        for v, n in self.assigns.items():
            if n > 1:
                self.err(f"'{v.name}' is assigned {n} times")
        for v, n in self.defs.items():
            already = self.assigns[v] > 1
            if n > 1 and not already and not (v in f.params and n == 2 and self.assigns[v] == 1):
                self.err(f"'{v.name}' is defined {n} times")
        self._check(f.body, set(f.params))
        return self.errors

    def _collect_defs(self, body: Stmt) -> None:
        for stmt in walk_stmts(body):
            if isinstance(stmt, AssignStmt):
                self.assigns[stmt.var] += 1
            for v in stmt_defs(stmt):
                self.defs[v] += 1
                self.all_defined.add(v)

    def _use(self, exprs: tuple[Expr, ...], visible: set[Var], where: str) -> None:
        for v in sorted(vars_used(*exprs), key=lambda x: x.name):
            if v in self.all_defined and v not in visible:
                self.err(f"'{v.name}' is used in {where} outside the scope that defines it")

    def _check_yield_tail(self, body: Stmt, arity: int, what: str) -> None:
        stmts = list(body.stmts) if isinstance(body, SeqStmts) else [body]
        last = stmts[-1] if stmts else None
        while isinstance(last, ScopeStmt) and is_transparent_scope(last):
            inner = last.body
            stmts = list(inner.stmts) if isinstance(inner, SeqStmts) else [inner]
            last = stmts[-1] if stmts else None
        if not isinstance(last, YieldStmt):
            self.err(f"{what} has return vars but its body does not end in a yield")
        elif len(last.values) != arity:
            self.err(f"{what} yields {len(last.values)} values for {arity} return vars")
        if any(isinstance(x, YieldStmt) for x in stmts[:-1]):
            self.err(f"{what} has a yield before the end of its body")

    def _check(self, stmt: Stmt, visible: set[Var]) -> set[Var]:
        """Check `s` with `visible` in scope; returns what is visible after it."""
        s = stmt_kind(stmt)
        match s:
            case AssignStmt():
                self._use((s.value,), visible, f"the value of '{s.var.name}'")
                return visible | {s.var}
            case EvalStmt():
                self._use((s.expr,), visible, "a statement")
                return visible
            case ReturnStmt() | YieldStmt():
                self._use(s.values, visible, "a return" if isinstance(s, ReturnStmt) else "a yield")
                return visible
            case SeqStmts():
                for c in s.stmts:
                    visible = self._check(c, visible)
                return visible
            case ForStmt() | WhileStmt():
                what = "a for loop" if isinstance(s, ForStmt) else "a while loop"
                if isinstance(s, ForStmt):
                    self._use((s.start, s.stop, s.step), visible, f"the range of {what}")
                self._use(tuple(ia.init for ia in s.iter_args if ia.init is not None), visible,
                          f"the init values of {what}")
                if len(s.iter_args) != len(s.return_vars):
                    self.err(f"{what} has {len(s.iter_args)} iter args but {len(s.return_vars)} return vars")
                inner = visible | set(s.iter_args)
                if isinstance(s, ForStmt):
                    inner.add(s.loop_var)
                else:
                    self._use((s.condition,), inner, f"the condition of {what}")
                self._check(s.body, inner)
                if s.return_vars:
                    self._check_yield_tail(s.body, len(s.return_vars), what)
                return visible | set(s.return_vars)
            case IfStmt():
                self._use((s.condition,), visible, "an if condition")
                self._check(s.then_body, visible)
                if s.else_body is not None:
                    self._check(s.else_body, visible)
                if s.return_vars:
                    self._check_yield_tail(s.then_body, len(s.return_vars), "an if's then branch")
                    if s.else_body is None:
                        self.err("an if with return vars has no else branch")
                    else:
                        self._check_yield_tail(s.else_body, len(s.return_vars), "an if's else branch")
                return visible | set(s.return_vars)
            case ScopeStmt():
                self._use(stmt_exprs(s), visible, "scope arguments")
                # Scopes are transparent: their bindings stay visible after them, and so does
                # the task id the scope binds (`as tid`).
                after = self._check(s.body, visible)
                return after if s.task_id is None else after | {s.task_id}
            case BreakStmt() | ContinueStmt():
                return visible
            case _:
                assert_never(s)
