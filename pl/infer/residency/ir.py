"""IR walking helpers of phase 4 (loop-invariant Mat residency), and the marker strip.

Guarantees: pure functions over the frozen IR, never mutating it.
- `expr_calls` / `expr_var_likes` walk one expression (pl.ir.traverse.walk_exprs).
- `strip_and_normalise(func, normalise)` removes the private bridge marker from every Call (nested
  calls, loop headers and iter-arg initial values included; other attrs kept) and, when asked,
  rebuilds every body with `make_body`. IterArgs whose initial value changed are rebuilt once and
  every reference follows, so Var identity stays consistent.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from pl.ir.expr import MAT_BRIDGE_ATTR, Call, Expr, IterArg, MakeTuple, Var, is_submit
from pl.ir.function import Function
from pl.ir.stmt import ForStmt, SeqStmts, Stmt, WhileStmt, make_body
from pl.ir.traverse import map_expr, map_stmt, walk_exprs

BRIDGE_MARKER = MAT_BRIDGE_ATTR


def call_like_args(e: object) -> tuple[Expr, ...]:
    """Arguments of a Call or Submit (Submit's dependencies count as arguments here)."""
    args: tuple[Expr, ...] = tuple(getattr(e, "args", ()))
    if is_submit(e) and isinstance(e, Call):
        deps = e.attr("deps")
        args += tuple(d for d in (deps.elements if isinstance(deps, MakeTuple) else
                                  deps if isinstance(deps, tuple) else (deps,)) if isinstance(d, Expr))
    return args


def callee_name(e: object) -> str:
    op = getattr(e, "op", None)
    return str(getattr(op, "name", ""))


def expr_calls(e: Expr) -> Iterator[Call]:
    """Every Call inside `e`, a Submit included (outer before inner); IterArg initial values excluded."""
    return (x for x in walk_exprs(e) if isinstance(x, Call))


def expr_var_likes(e: Expr) -> Iterator[Var]:
    """Every Var / IterArg occurrence inside `e` (no initial values, no types)."""
    return (x for x in walk_exprs(e) if isinstance(x, Var))


def direct_statements(body: Stmt) -> tuple[Stmt, ...]:
    return body.stmts if isinstance(body, SeqStmts) else (body,)


class _Stripper:
    def __init__(self, normalise: bool) -> None:
        self.normalise = normalise
        self.iter_args: dict[Var, IterArg] = {}

    def var(self, v: Var) -> Var:
        if not isinstance(v, IterArg) or v.init is None:
            return v
        hit = self.iter_args.get(v)
        if hit is None:
            init = self.expr(v.init)
            hit = v if init is v.init else IterArg(v.name, v.var_type, span=v.span, init=init)
            self.iter_args[v] = hit
        return hit

    def expr(self, e: Expr) -> Expr:
        if type(e) is Var:
            return e  # a leaf: only an IterArg holds an expression (`var`)
        if type(e) is IterArg:
            return self.var(e)
        new = map_expr(e, self.expr)
        if isinstance(new, Call) and new.attrs and any(k == BRIDGE_MARKER for k, _ in new.attrs):
            new = replace(new, attrs=tuple((k, v) for k, v in new.attrs if k != BRIDGE_MARKER))
        return new

    def body(self, s: Stmt) -> Stmt:
        out = self.stmt(s)
        if not self.normalise or not (isinstance(out, SeqStmts) and len(out.stmts) < 2):
            return out
        return make_body([out])

    def stmt(self, s: Stmt) -> Stmt:
        if isinstance(s, SeqStmts):
            new = [self.stmt(x) for x in s.stmts]
            if _already_normal(new, s.stmts):
                return s
            return make_body(new) if self.normalise else replace(s, stmts=tuple(new))
        out = map_stmt(s, self.body, self.expr)
        if isinstance(out, (ForStmt, WhileStmt)):
            # An iter arg's initial value lives in the IterArg: `var` rebuilds it once, and every
            # use in the body (mapped through `expr`) gets the same rebuilt IterArg.
            ias = tuple(self.var(ia) for ia in out.iter_args)
            if not all(a is b for a, b in zip(ias, out.iter_args, strict=True)):
                out = replace(out, iter_args=ias)  # type: ignore[arg-type]
        return out


def _already_normal(new: list[Stmt], old: tuple[Stmt, ...]) -> bool:
    """Every child came back as itself and none is a SeqStmts, so the body needs no rebuild (a
    flat SeqStmts of several statements is what `make_body` would build anyway)."""
    return len(new) > 1 and all(a is b and not isinstance(a, SeqStmts) for a, b in zip(new, old, strict=True))


def strip_and_normalise(func: Function, normalise: bool) -> Function:
    """`func` without the bridge marker anywhere; bodies rebuilt with `make_body` when asked."""
    body = _Stripper(normalise).body(func.body)
    return func if body is func.body else replace(func, body=body)
