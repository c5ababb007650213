"""IR walking helpers of phase 4 (loop-invariant Mat residency), and the marker strip.

Guarantees: pure functions over the frozen IR, never mutating it.
- `stmt_exprs(stmt)` lists the expressions a statement evaluates itself (not those of nested bodies),
  header expressions of loops included; `expr_calls` / `expr_var_likes` walk one expression.
- `strip_and_normalise(func, normalise)` removes the private bridge marker from every Call (nested
  calls, loop headers and iter-arg initial values included; other attrs kept) and, when asked,
  rebuilds every body with `make_body`. IterArgs whose initial value changed are rebuilt once and
  every reference follows, so Var identity stays consistent.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from pl.ir.expr import (
    BinaryExpr,
    Call,
    Expr,
    IterArg,
    MakeTuple,
    TupleGetItem,
    UnaryExpr,
    Var,
    is_submit,
)
from pl.ir.function import Function
from pl.ir.stmt import (
    AssignStmt,
    EvalStmt,
    ForStmt,
    IfStmt,
    ReturnStmt,
    ScopeStmt,
    SeqStmts,
    Stmt,
    WhileStmt,
    YieldStmt,
    make_body,
)

BRIDGE_MARKER = "__compiler_tensor_to_tile_mat_bridge"


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


def attr_exprs(values: tuple[tuple[str, Any], ...]) -> Iterator[Expr]:
    """Expressions held by kwargs / attrs values (directly or in a list/tuple, e.g. dump_vars)."""
    for _, v in values:
        if isinstance(v, Expr):
            yield v
        elif isinstance(v, (list, tuple)):
            yield from (x for x in v if isinstance(x, Expr))


def sub_exprs(e: Expr) -> Iterator[Expr]:
    """The direct sub-expressions of an expression, in argument order."""
    match e:
        case Call():
            yield from e.args
            yield from attr_exprs(e.kwargs)
            yield from attr_exprs(e.attrs)
        case MakeTuple(elements=els):
            yield from els
        case BinaryExpr(left=left, right=right):
            yield left
            yield right
        case UnaryExpr(operand=operand):
            yield operand
        case TupleGetItem(tuple_expr=t):
            yield t
        case _ if is_submit(e):
            yield from call_like_args(e)
            yield from attr_exprs(tuple(getattr(e, "kwargs", ())))
            yield from attr_exprs(tuple(getattr(e, "attrs", ())))


def expr_calls(e: Expr) -> Iterator[Expr]:
    """Every Call / Submit inside `e` (outer before inner); IterArg initial values excluded."""
    if isinstance(e, Call) or is_submit(e):
        yield e
    for s in sub_exprs(e):
        yield from expr_calls(s)


def expr_var_likes(e: Expr) -> Iterator[Var]:
    """Every Var / IterArg occurrence inside `e` (no initial values, no types)."""
    if isinstance(e, Var):
        yield e
        return
    for s in sub_exprs(e):
        yield from expr_var_likes(s)


def stmt_exprs(s: Stmt) -> tuple[Expr, ...]:
    """The expressions `s` itself evaluates (loop headers and iter-arg inits included)."""
    match s:
        case AssignStmt(value=v):
            return (v,)
        case EvalStmt(expr=e):
            return (e,)
        case ReturnStmt(values=vals) | YieldStmt(values=vals):
            return vals
        case IfStmt(condition=c):
            return (c,)
        case ForStmt():
            return (s.start, s.stop, s.step, *(ia.init for ia in s.iter_args if ia.init is not None))
        case WhileStmt():
            return (*(ia.init for ia in s.iter_args if ia.init is not None), s.condition)
    return ()


def child_bodies(s: Stmt) -> tuple[Stmt, ...]:
    match s:
        case SeqStmts(stmts=stmts):
            return stmts
        case ForStmt(body=b) | WhileStmt(body=b) | ScopeStmt(body=b):
            return (b,)
        case IfStmt(then_body=t, else_body=e):
            return (t,) if e is None else (t, e)
    return ()


def walk(s: Stmt) -> Iterator[Stmt]:
    """Every statement, pre-order (program order)."""
    yield s
    for c in child_bodies(s):
        yield from walk(c)


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
        if type(e) is Var:  # most operands: nothing inside to strip
            return e
        match e:
            case Var():
                return self.var(e)
            case Call():
                if not e.attrs and all(type(a) is Var for a in e.args):
                    return e  # the usual call: no marker here nor below
                args = tuple(a if type(a) is Var else self.expr(a) for a in e.args)
                attrs = tuple((k, v) for k, v in e.attrs if k != BRIDGE_MARKER)
                if len(attrs) == len(e.attrs) and all(a is b for a, b in zip(args, e.args, strict=True)):
                    return e
                return replace(e, args=args, attrs=attrs)
            case MakeTuple(elements=els):
                new = tuple(self.expr(x) for x in els)
                return e if all(a is b for a, b in zip(new, els, strict=True)) else replace(e, elements=new)
            case BinaryExpr():
                left, right = self.expr(e.left), self.expr(e.right)
                return e if left is e.left and right is e.right else replace(e, left=left, right=right)
            case UnaryExpr():
                operand = self.expr(e.operand)
                return e if operand is e.operand else replace(e, operand=operand)
            case TupleGetItem():
                t = self.expr(e.tuple_expr)
                return e if t is e.tuple_expr else replace(e, tuple_expr=t)
        return e

    def body(self, s: Stmt) -> Stmt:
        out = self.stmt(s)
        if not self.normalise or not (isinstance(out, SeqStmts) and len(out.stmts) < 2):
            return out
        return make_body([out])

    def assign(self, s: AssignStmt) -> Stmt:
        value = self.expr(s.value)
        return s if value is s.value else AssignStmt(s.var, value, span=s.span, comments=s.comments)

    def stmt(self, s: Stmt) -> Stmt:
        match s:
            case SeqStmts(stmts=stmts):
                new = [self.assign(x) if type(x) is AssignStmt else self.stmt(x) for x in stmts]
                if _already_normal(new, stmts):
                    return s
                return make_body(new) if self.normalise else replace(s, stmts=tuple(new))
            case AssignStmt():
                return self.assign(s)
            case EvalStmt():
                e = self.expr(s.expr)
                return s if e is s.expr else replace(s, expr=e)
            case ReturnStmt(values=vals) | YieldStmt(values=vals):
                new_vals = tuple(self.expr(v) for v in vals)
                if all(a is b for a, b in zip(new_vals, vals, strict=True)):
                    return s
                return replace(s, values=new_vals)
            case ForStmt():
                ias: Any = tuple(self.var(ia) for ia in s.iter_args)
                return replace(s, start=self.expr(s.start), stop=self.expr(s.stop),
                               step=self.expr(s.step), iter_args=ias, body=self.body(s.body))
            case WhileStmt():
                ias = tuple(self.var(ia) for ia in s.iter_args)
                return replace(s, iter_args=ias, condition=self.expr(s.condition), body=self.body(s.body))
            case IfStmt():
                return replace(s, condition=self.expr(s.condition), then_body=self.body(s.then_body),
                               else_body=None if s.else_body is None else self.body(s.else_body))
            case ScopeStmt():
                return replace(s, body=self.body(s.body))
        return s


def _already_normal(new: list[Stmt], old: tuple[Stmt, ...]) -> bool:
    """Every child came back as itself and none is a SeqStmts, so the body needs no rebuild (a
    flat SeqStmts of several statements is what `make_body` would build anyway)."""
    return len(new) > 1 and all(a is b and not isinstance(a, SeqStmts) for a, b in zip(new, old, strict=True))


def strip_and_normalise(func: Function, normalise: bool) -> Function:
    """`func` without the bridge marker anywhere; bodies rebuilt with `make_body` when asked."""
    body = _Stripper(normalise).body(func.body)
    return func if body is func.body else replace(func, body=body)
