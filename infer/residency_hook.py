"""The phase-4 hook of memory-space inference, as it stands before residency exists.

Guarantees: `strip_bridge_markers(program, backend)` removes the private Call attr
`__compiler_tensor_to_tile_mat_bridge` from every Call of every function (other attrs kept) and
normalises the bodies of InCore/AIC/AIV functions (nested SeqStmts flattened, one-statement blocks
unwrapped); it hoists nothing and so reports no residency decisions. The real phase 4 replaces it
with the same signature.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from infer.decisions import ResidencyDecision
from pl.ir.expr import BinaryExpr, Call, Expr, IterArg, MakeTuple, TupleGetItem, UnaryExpr, Var
from pl.ir.function import Function, Program
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

# Phase 4 signature: (program, backend) -> (program, residency decisions). The decisions may be
# our ResidencyDecision or the residency module's own record; the log only formats / serialises them.
Residency = Callable[[Program, "str | None"], tuple[Program, Sequence[Any]]]


class _Stripper:
    def __init__(self, normalise: bool) -> None:
        self.normalise = normalise
        self.vars: dict[Var, Var] = {}

    def var(self, v: Var) -> Var:
        if not isinstance(v, IterArg):
            return self.vars.get(v, v)
        hit = self.vars.get(v)
        if hit is None:
            init = self.expr(v.init)
            hit = v if init is v.init else IterArg(v.name, v.type, span=v.span, init=init)
            self.vars[v] = hit
        return hit

    def expr(self, e: Expr) -> Expr:
        match e:
            case Var():
                return self.var(e)
            case Call():
                args = tuple(self.expr(a) for a in e.args)
                attrs = tuple((k, v) for k, v in e.attrs if k != BRIDGE_MARKER)
                if len(attrs) == len(e.attrs) and all(a is b for a, b in zip(args, e.args, strict=True)):
                    return e
                return replace(e, args=args, attrs=attrs)
            case MakeTuple(elements=els):
                return replace(e, elements=tuple(self.expr(x) for x in els))
            case BinaryExpr():
                return replace(e, left=self.expr(e.left), right=self.expr(e.right))
            case UnaryExpr():
                return replace(e, operand=self.expr(e.operand))
            case TupleGetItem():
                return replace(e, tuple_expr=self.expr(e.tuple_expr))
        return e

    def body(self, s: Stmt) -> Stmt:
        out = self.stmt(s)
        return make_body([out]) if self.normalise else out

    def stmt(self, s: Stmt) -> Stmt:
        match s:
            case SeqStmts(stmts=stmts):
                new = [self.stmt(x) for x in stmts]
                return make_body(new) if self.normalise else replace(s, stmts=tuple(new))
            case AssignStmt():
                return replace(s, value=self.expr(s.value))
            case EvalStmt():
                return replace(s, expr=self.expr(s.expr))
            case ReturnStmt(values=vals) | YieldStmt(values=vals):
                return replace(s, values=tuple(self.expr(v) for v in vals))
            case ForStmt():
                ias: Any = tuple(self.var(ia) for ia in s.iter_args)
                return replace(s, start=self.expr(s.start), stop=self.expr(s.stop),
                               step=self.expr(s.step), iter_args=ias, body=self.body(s.body))
            case WhileStmt():
                ias = tuple(self.var(ia) for ia in s.iter_args)
                return replace(s, iter_args=ias, condition=self.expr(s.condition),
                               body=self.body(s.body))
            case IfStmt():
                return replace(s, condition=self.expr(s.condition), then_body=self.body(s.then_body),
                               else_body=None if s.else_body is None else self.body(s.else_body))
            case ScopeStmt():
                return replace(s, body=self.body(s.body))
        return s


def strip_function(f: Function) -> Function:
    body = _Stripper(f.func_type.is_incore_kind()).body(f.body)
    return f if body == f.body else replace(f, body=body)


def strip_bridge_markers(program: Program, backend: str | None = None
                         ) -> tuple[Program, tuple[ResidencyDecision, ...]]:
    del backend  # no residency without the real phase 4
    funcs = tuple(strip_function(f) for f in program.functions)
    return replace(program, functions=funcs), ()
