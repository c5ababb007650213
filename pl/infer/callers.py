"""The calls that functions inference does not place make of functions it placed, retyped.

Inference may give a function's tile result another type than the one it was declared with (a
result takes its returned value's placed type, `memory_space._returned_types`): a `pl.at` scope's
outlined body returning a tile whose deduced layout followed an Acc operand, say. A caller that
inference transforms retypes its own statements; an Orchestration or Opaque caller is not
transformed, so its call would keep the old type, and the compiled program would read back (the
call typed by the callee's new results, as the frontend types it) to another one.

Guarantees: `follow_returned_types(new, old)` returns `new` with every call of a function whose
result types changed, in a function of a kind inference does not transform, typed by the new
results; a Var bound to such a call, or to an item of one, is a new Var of the value's type, and
its uses (loop carries' initial values included) read it. A loop or if result keeps its type.
Functions without such a call are returned as the same objects.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from typing_extensions import assert_never

from pl.ir.expr import Call, Expr, GlobalVar, IterArg, Var, is_submit, program_call_type
from pl.ir.function import Function
from pl.ir.stmt import (
    AssignStmt,
    BreakStmt,
    ContinueStmt,
    EvalStmt,
    ForStmt,
    IfStmt,
    ReturnStmt,
    ScopeStmt,
    SeqStmts,
    Stmt,
    WhileStmt,
    YieldStmt,
    stmt_kind,
)
from pl.ir.traverse import map_expr, map_stmt
from pl.ir.types import Type

__all__ = ["follow_returned_types"]


def follow_returned_types(new: Sequence[Function], old: Sequence[Function]) -> list[Function]:
    changed = {f.name: f.return_types for f, o in zip(new, old, strict=True)
               if f.return_types != o.return_types}
    if not changed:
        return list(new)
    return [f if f.func_type.is_incore_kind() else _Retype(changed).function(f) for f in new]


class _Retype:
    def __init__(self, changed: dict[str, tuple[Type, ...]]) -> None:
        self.changed = changed
        self.versions: dict[Var, Var] = {}

    def function(self, f: Function) -> Function:
        body = self.stmt(f.body)
        return f if body is f.body else replace(f, body=body)

    def expr(self, e: Expr) -> Expr:
        if isinstance(e, Var):
            return self.versions.get(e, e)
        out = map_expr(e, self.expr)
        if isinstance(out, Call) and isinstance(out.op, GlobalVar) and out.op.name in self.changed:
            t = program_call_type(self.changed[out.op.name], submit=is_submit(out))
            if t != out.result_type:
                return Call(out.op, out.args, out.kwargs, out.attrs, t, span=out.span)
        return out

    def carried(self, ias: tuple[IterArg, ...]) -> tuple[IterArg, ...]:
        out = []
        for ia in ias:
            init = self.expr(ia.init) if ia.init is not None else None
            if init is not ia.init:
                new = IterArg(ia.name, ia.var_type, init=init, span=ia.span)
                self.versions[ia] = new
                ia = new
            out.append(ia)
        return tuple(out)

    def stmt(self, s: Stmt) -> Stmt:
        k = stmt_kind(s)
        match k:
            case AssignStmt():
                value = self.expr(k.value)
                if value is k.value:
                    return s
                var = k.var
                if value.type != var.type:
                    var = Var(var.name, value.type, span=var.span)
                    self.versions[k.var] = var
                return AssignStmt(var, value, span=k.span, comments=k.comments)
            case ForStmt() | WhileStmt():
                ias = self.carried(k.iter_args)
                loop = map_stmt(k, body=self.stmt, expr=self.expr)
                return loop if ias is k.iter_args else replace(loop, iter_args=ias)
            case EvalStmt() | ReturnStmt() | YieldStmt() | SeqStmts() | IfStmt() | ScopeStmt() \
                    | BreakStmt() | ContinueStmt():
                return map_stmt(s, body=self.stmt, expr=self.expr)
            case _:
                assert_never(k)
