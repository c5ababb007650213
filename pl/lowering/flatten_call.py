"""FlattenCallExpr (the reference's pass of that name): an op call nested where a tile op must
stand at top level gets a statement of its own, so tensor-to-tile conversion converts it and
memory-space inference places its operands and moves its result like any other statement's.

The frontend keeps calls nested as the user wrote them (`y = pl.exp(pl.mul(x, c))` is one
statement), so `parse(print(p)) == p` and `show_inferred` sees the user's statement; this pass,
in the default pipeline after unroll_loops and before convert_to_ssa (so its temporaries are
versioned like every other definition), makes the three-address form.

Guarantees:
- A call of an op (not of a program function) whose result is a tile or a tensor is extracted
  when it stands as an argument (positional, or a keyword's value) of another op call, as a
  returned or yielded value, or as an element of a tuple
  when it writes an argument in place (its result is that tile again, wherever inference moves
  the argument). Inner calls first, left to right: `t = op(...)`, the temporary named after the
  op (`muls = pl.tile.muls(add, 0.5)`; the printer tells equal names apart), then the statement
  reading it. The temporaries stand right before the statement (before an `if`, a loop or a scope
  for the calls of its header, which it evaluates once) and take over its leading comments; each
  carries the statement's span, its value the call's own.
- A while's condition is left as written: it is evaluated before every iteration, so a call in it
  must stay there (inference moves its operands in place). A loop's initial values are left as
  the reference's pass leaves them (an IterArg is a definition; the frontend binds a call
  written in `init_values=` to a name before the loop, and inference moves a nested one where it
  stands).
- Calls of program functions, scalar-valued calls, calls under scalar arithmetic and `attrs`
  stay where they are (their operands are still flattened).
- Pure: a function without such a call comes back as the same object, and so does a program
  without any; the result has no call left to extract (the pass is idempotent).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from typing_extensions import assert_never

from pl.ir.expr import (
    BinaryExpr,
    Call,
    ConstBool,
    ConstFloat,
    ConstInt,
    Expr,
    GlobalVar,
    MakeTuple,
    TupleGetItem,
    UnaryExpr,
    Var,
    expr_kind,
)
from pl.ir.function import Function, Program
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
    flatten_body,
    make_body,
    stmt_kind,
)
from pl.ir.traverse import map_expr, map_stmt
from pl.ir.types import TensorType, TileType
from pl.ops.registry import get_op

__all__ = ["extractable", "flatten_call_expr", "statement_temps"]


def flatten_call_expr(program: Program) -> Program:
    """`program` with every nested op call of a tile or tensor extracted (module docstring)."""
    functions = tuple(_function(f) for f in program.functions)
    if all(a is b for a, b in zip(functions, program.functions, strict=True)):
        return program
    return dataclasses.replace(program, functions=functions)


def statement_temps(s: AssignStmt | EvalStmt | ReturnStmt | YieldStmt) -> list[AssignStmt]:
    """The statements this pass puts before the simple statement `s`, in order (show_inferred
    reads a compiled statement's temporaries back to the calls the user nested)."""
    temps: list[Stmt] = []
    _stmt(s, temps)
    return temps  # type: ignore[return-value]


def extractable(e: Expr) -> bool:
    """`e` is a call this pass gives a statement of its own where it is nested: an op call (not
    a program function's) whose result is a tile or a tensor."""
    return type(e) is Call and not isinstance(e.op, GlobalVar) \
        and isinstance(e.type, TileType | TensorType)


def _function(f: Function) -> Function:
    body = _body(f.body)
    return f if body is f.body else dataclasses.replace(f, body=body)


def _body(body: Stmt) -> Stmt:
    stmts = flatten_body(body)
    out: list[Stmt] = []
    changed = False
    for s in stmts:
        temps: list[Stmt] = []
        new = _stmt(s, temps)
        if temps:
            temps[0] = dataclasses.replace(temps[0], comments=new.comments)  # type: ignore[type-var]
            new = dataclasses.replace(new, comments=())  # type: ignore[type-var]
        out += temps
        out.append(new)
        changed = changed or new is not s or bool(temps)
    if not changed:
        return body
    if isinstance(body, SeqStmts):
        return dataclasses.replace(body, stmts=tuple(out))
    return make_body(out)


class _Extract:
    """Rewrites one statement's expressions, appending the temporaries to `temps`."""

    def __init__(self, temps: list[Stmt], span: Any) -> None:
        self.temps = temps
        self.span = span

    def hoisted(self, e: Expr) -> Expr:
        """`e` flattened, then itself given a temporary when extractable."""
        e = self.inner(e)
        if not extractable(e):
            return e
        assert isinstance(e, Call)
        temp = Var(e.op.name.rsplit(".", 1)[-1], e.type, span=e.span)
        self.temps.append(AssignStmt(temp, e, span=self.span))
        return temp

    def inner(self, e: Expr) -> Expr:
        """`e` with the calls nested in it extracted (not `e` itself)."""
        k = expr_kind(e)
        match k:
            case Call():
                return map_expr(k, self.inner if isinstance(k.op, GlobalVar) else self.hoisted)
            case MakeTuple():
                return map_expr(k, self._element)
            case BinaryExpr() | UnaryExpr() | TupleGetItem() | Var() | ConstInt() | ConstFloat() \
                    | ConstBool():
                return map_expr(k, self.inner)
            case _:
                assert_never(k)

    def _element(self, e: Expr) -> Expr:
        return self.hoisted(e) if _writes_in_place(e) else self.inner(e)


def _writes_in_place(e: Expr) -> bool:
    if type(e) is not Call or isinstance(e.op, GlobalVar):
        return False
    op = get_op(e.op.name)
    return op is not None and bool(op.inplace_args)


def _stmt(s: Stmt, temps: list[Stmt]) -> Stmt:
    x = _Extract(temps, s.span)
    k = stmt_kind(s)
    match k:
        case AssignStmt() | EvalStmt() | IfStmt() | ScopeStmt():
            return map_stmt(k, _body, x.inner)
        case ReturnStmt() | YieldStmt():
            return map_stmt(k, _body, x.hoisted)
        case ForStmt():
            return map_stmt(k, _body, x.inner)
        case WhileStmt():
            return map_stmt(k, _body, _kept)  # the condition stays as written
        case SeqStmts():
            return _body(k)
        case BreakStmt() | ContinueStmt():
            return k
        case _:
            assert_never(k)


def _kept(e: Expr) -> Expr:
    return e
