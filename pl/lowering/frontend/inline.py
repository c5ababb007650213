"""`@pl.inline` functions: helpers whose body is spliced into the caller at each call site.

Guarantees: an inline function is no function of the program; each call lowers its body anew, in
the caller's function, so every call has its own locals. The arguments are lowered in the caller,
by position, one per parameter; the body sees its parameters bound to them and the names of its
own module (and closure). A parameter the body rebinds is a local bound to the argument first, so
rebinding it never rebinds the caller's variable. The body's statements go before the caller's
statement; the call's value is what the body's final `return` gives (a tuple for `return a, b`);
as a statement, a call may give no value. Refused with a located error: keyword arguments, a
wrong argument count, a `return` anywhere but as the body's last statement, the value of an
inline function that returns nothing, an inline function that calls itself (directly or through
others), a call in the header of a compound statement (`if f(x):`), and parameters other than
plain names.

Where the reference's parser differs, Python's scoping is kept instead: its inline body also sees
the caller's local variables, and the body's names (its parameters included) stay bound in the
caller after the call; here neither happens (a kernel relying on them gets "Undefined variable").
Its early `return` in a branch silently gives the last one parsed; here it is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

import libcst as cst

from pl.deep_stack import MAX_NESTING
from pl.errors import PlError
from pl.ir.expr import Call, Expr, MakeTuple, Var
from pl.ir.stmt import AssignStmt, EvalStmt, ReturnStmt, Stmt
from pl.lowering.flatten_call import extractable
from pl.lowering.frontend.blocks import lower_block, suite
from pl.lowering.frontend.bound import BoundNames
from pl.lowering.frontend.constants import py_to_expr
from pl.lowering.frontend.context import FnCtx, InlineCallee, ProgCtx
from pl.lowering.frontend.exprs import hoist_nested, lower_value
from pl.lowering.frontend.source import SourceFile


@dataclass(frozen=True, eq=False)
class InlineFunction(InlineCallee):
    """What `@pl.inline` binds: the definition's node in its parsed file, and the names its body
    sees (its module's globals, the decorating frame's locals and the function's closure)."""

    name: str
    node: cst.FunctionDef
    src: SourceFile
    globals: dict[str, Any] = field(repr=False)
    closure: dict[str, Any] = field(repr=False)
    params: tuple[str, ...]

    def expand(self, ctx: FnCtx, call: cst.Call, as_value: bool = True) -> Expr | None:
        if ctx.hoisted is None:
            raise ctx.error(call, f"Inline function '{self.name}' cannot be called in the header "
                                  "of a while loop, which is evaluated before every iteration",
                            hint="Bind its value to a name in a statement before, and use the name")
        if self.name in ctx.inlining:
            cycle = " -> ".join([*ctx.inlining[ctx.inlining.index(self.name):], self.name])
            raise ctx.error(call.func, f"Inline function '{self.name}' calls itself: {cycle}",
                            hint="An inline body is spliced at each call: it cannot recurse")
        if len(ctx.inlining) >= MAX_NESTING:
            raise ctx.error(call.func, f"Inline function '{self.name}' is called through more "
                                       f"than {MAX_NESTING} nested inline calls (pl's limit)",
                            hint="make one of the helpers a function of the program")
        values = self._arguments(ctx, call)
        if all(isinstance(v, Expr) for v in values):
            ctx.prog.note_call(self.src.filename, self.name,
                               tuple(v.type for v in values if isinstance(v, Expr)),
                               ctx.func_type)
        # A parameter the body rebinds becomes a Var of its own, bound to the argument before
        # the body (rebinding it in a loop is then a carried value, as for any local); the
        # others stand for the argument itself, as the reference binds them.
        rebound = BoundNames()
        self.node.body.visit(rebound)
        locals_: dict[str, Var] = {}
        for pname, arg in zip(self.params, values, strict=True):
            if pname in rebound.names and isinstance(arg, Expr):
                local = Var(pname, arg.type, span=ctx.cur_span)
                ctx.hoisted.append(AssignStmt(local, arg, span=ctx.cur_span))
                locals_[pname] = local
        prog = replace(ctx.prog, src=self.src, globals=self.globals,
                       closure={**self.closure, **dict(zip(self.params, values, strict=True))})
        body_ctx = FnCtx(prog, ctx.name, None, func_type=ctx.func_type, scopes=[locals_],
                         inlining=(*ctx.inlining, self.name), written_spaces=ctx.written_spaces,
                         same_variable=ctx.same_variable)
        try:
            stmts = lower_block(body_ctx, _body(body_ctx, self.node))
        except PlError as e:
            if e.note is None:
                e.note = f"in inline function '{self.name}', called at {ctx.cur_span}"
            raise
        returned: tuple[Expr, ...] = ()
        last = stmts[-1] if stmts else None
        if isinstance(last, ReturnStmt):
            stmts.pop()
            returned = tuple(_bound(v, last, stmts) for v in last.values)
        ctx.hoisted.extend(stmts)
        value: Expr | None = None
        if returned:
            value = returned[0] if len(returned) == 1 else MakeTuple(returned)
        if as_value and value is None:
            raise ctx.error(call, f"Inline function '{self.name}' has no return value",
                            hint="Inline functions used as expressions must return a value")
        if not as_value and isinstance(value, Call):  # a statement: the call still runs
            ctx.hoisted.append(EvalStmt(value, span=ctx.cur_span))
        return value

    def _arguments(self, ctx: FnCtx, call: cst.Call) -> list[Any]:
        """The arguments, lowered in the caller: kernel values, or the static values (enum
        members, strings) op attributes take."""
        for a in call.args:
            if a.keyword is not None or a.star:
                raise ctx.error(a, f"Inline function '{self.name}' takes its arguments by position",
                                hint=f"Parameters: {list(self.params)}")
        if len(call.args) != len(self.params):
            raise ctx.error(call, f"Inline function '{self.name}' expects {len(self.params)} "
                                  f"argument(s), got {len(call.args)}",
                            hint=f"Parameters: {list(self.params)}")
        values = []
        for a in call.args:
            value = lower_value(ctx, a.value)
            if not isinstance(value, Expr | str | Enum):
                value = py_to_expr(ctx, value, a.value)
            values.append(hoist_nested(ctx, value))
        return values


def _bound(value: Expr, ret: ReturnStmt, stmts: list[Stmt]) -> Expr:
    """A value the body returns, as the call's value: an op call of a tile or a tensor is bound
    to a name by a statement at the `return` (`mul = pl.mul(t, 0.5)`), which stands in the
    helper's body where the user wrote it (show_inferred annotates the helper there); else the
    value itself."""
    if not extractable(value):
        return value
    assert isinstance(value, Call)
    temp = Var(value.op.name.rsplit(".", 1)[-1], value.type, span=value.span)
    stmts.append(AssignStmt(temp, value, span=ret.span, comments=ret.comments))
    return temp


class _Returns(cst.CSTVisitor):
    """The `return` statements of a body (not of functions or classes nested in it)."""

    def __init__(self) -> None:
        self.found: list[cst.Return] = []

    def visit_Return(self, node: cst.Return) -> bool:
        self.found.append(node)
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


def _body(ctx: FnCtx, node: cst.FunctionDef) -> Sequence[cst.CSTNode]:
    """The statements of the inline function, checked to return only at their end."""
    stmts = suite(node.body)
    final = None
    if stmts and isinstance(stmts[-1], cst.SimpleStatementLine) \
            and isinstance(stmts[-1].body[-1], cst.Return):
        final = stmts[-1].body[-1]
    returns = _Returns()
    node.body.visit(returns)
    for r in returns.found:
        if r is not final:
            raise ctx.error(r, f"Inline function '{node.name.value}' may return only as its last "
                               "statement",
                            hint="Its body is spliced into the caller: compute the value in "
                                 "branches (pl.yield_) and return it at the end")
    return stmts


def inline_function(prog: ProgCtx, node: cst.FunctionDef) -> InlineFunction:
    """The inline function `node` defines, seeing the names of `prog` (its file's module)."""
    name = node.name.value
    params = node.params
    if node.asynchronous is not None or params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) \
            or params.star_kwarg is not None or params.kwonly_params or params.posonly_params \
            or any(p.default is not None for p in params.params):
        raise prog.src.error(node.name if node.asynchronous is None else node.asynchronous,
                             f"Inline function '{name}' may only have plain parameters",
                             hint="A call passes one argument per parameter, by position")
    return InlineFunction(name, node, prog.src, prog.globals, prog.closure,
                          tuple(p.name.value for p in params.params))
