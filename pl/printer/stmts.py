"""The text of IR statements (dsl.md section 4, with our section-0 overrides).

Guarantees: every assignment is annotated with its Var's type (UnknownType only prints bare);
a YieldStmt ending a loop / if body with return vars prints as `rv: T = pl.yield_(e)` or
`r1, r2 = pl.yield_(a, b)` (an if's result whose type is not its yielded value's is then declared
`r1: T` right before the if), and at function level as `return`; a statement's comments print as
`# text` lines above it; a simple statement ending in a call is wrapped by the one rule of
pl/printer/doc.py (no other line is). A SeqStmts of any length is printed by a loop, never by
recursion per statement. `statement_text` prints one statement alone at a given indentation
(the lines `pl.show_inferred` inserts into a user's file come from it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from types import MappingProxyType
from typing import Any, Final

from typing_extensions import assert_never

from pl.ir.enums import DType, ForKind, Level, ScopeKind
from pl.ir.expr import Call, ConstInt, Expr, Var
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
    StmtKind,
    WhileStmt,
    YieldStmt,
    flatten_body,
    make_body,
)
from pl.ir.traverse import last_yield
from pl.ir.types import UnknownType
from pl.printer.doc import Doc
from pl.printer.exprs import (
    PrintContext,
    call_parts,
    call_text,
    dict_text,
    enum_text,
    expr_text,
    list_text,
    tuple_text,
    type_parts,
    type_text,
    value_text,
)

_SCOPE_CALLS: Final[Mapping[ScopeKind, str]] = MappingProxyType({
    ScopeKind.Runtime: "scope", ScopeKind.InCore: "at", ScopeKind.Hierarchy: "at",
    ScopeKind.Cluster: "cluster", ScopeKind.Spmd: "spmd", ScopeKind.SplitAiv: "split_aiv",
})
_RANGE_CALLS: Final[Mapping[ForKind, str]] = MappingProxyType({
    ForKind.Sequential: "range", ForKind.Parallel: "parallel",
    ForKind.Unroll: "unroll", ForKind.Pipeline: "pipeline",
})


def _is_index(e: Expr, value: int) -> bool:
    return isinstance(e, ConstInt) and e.value == value and e.dtype is DType.INDEX


def statement_text(s: Stmt, ctx: PrintContext, indent: str = "", rvs: tuple[Var, ...] = ()) -> str:
    """The lines of one statement printed alone at `indent` (`rvs`: the return vars a yield in it
    binds), wrapped as inside a printed program at that indentation."""
    doc = Doc(indent)
    StmtPrinter(ctx, doc).stmt(s, rvs)
    return doc.text()


class StmtPrinter:
    """Prints statements into `doc` at its indentation (names and options are in `ctx`)."""

    def __init__(self, ctx: PrintContext, doc: Doc) -> None:
        self.ctx = ctx
        self.doc = doc

    def _ending_in(self, head: str, value: Expr) -> None:
        """`head` + `value` as one statement line, wrapped if `value` is a call."""
        if type(value) is Call:
            func, items = call_parts(value, self.ctx)
            self.doc.group(head + func + "(", items, ")")
        else:
            self.doc.line(head + expr_text(value, self.ctx))

    def _typed(self, v: Var, after: str, items: Sequence[str] | None = None,
               tail: str = "") -> None:
        """`v: T` + `after` (+ the bracketed `items` and `tail`: `after` then ends with the
        open bracket), wrapped by the one rule. Where the line up to that bracket does not fit
        because of the annotation (a type with a `pl.TileView`), the annotation's own
        bracketed list is the group broken first: its items one a line (the statement goes on
        after its closing bracket), then `] ` + the rest, itself wrapped by the rule."""
        doc = self.doc
        name, t = self.ctx.name_of(v), v.type
        typed = name if type(t) is UnknownType else name + ": " + type_text(t, self.ctx)
        # The annotation's parts only where the line does not fit (`type_text` is remembered
        # per type for the print; the parts would be made again for every statement).
        fits = type(t) is UnknownType or len(doc.indent) + len(typed) + len(after) <= doc.width
        base, type_items = ("", None) if fits else type_parts(t, self.ctx)
        if type_items is None:
            if items is None:
                doc.line(typed + after)
            else:
                doc.group(typed + after, items, tail)
            return
        if not after and items is None:  # a bare declaration: its bracket ends the statement
            doc.group(name + ": " + base + "[", type_items, "]")
            return
        doc.line(name + ": " + base + "[")
        doc.push()
        for item in type_items:
            doc.line(item + ",")
        doc.pop()
        if items is None:
            doc.line("]" + after)
        else:
            doc.group("]" + after, items, tail)

    def _typed_ending_in(self, v: Var, value: Expr) -> None:
        """`v: T = value`, wrapped as `_typed` wraps it."""
        if type(value) is Call:
            func, items = call_parts(value, self.ctx)
            self._typed(v, " = " + func + "(", items, ")")
        else:
            self._typed(v, " = " + expr_text(value, self.ctx))

    def block(self, body: Stmt | None, rvs: tuple[Var, ...] = (), function_level: bool = False,
              empty: str | None = "pass") -> None:
        """The statements of a body at the doc's indentation; `empty` if there are none."""
        printed = False
        stack: list[Stmt] = [] if body is None else [body]
        while stack:
            s = stack.pop()
            if isinstance(s, SeqStmts):
                stack.extend(reversed(s.stmts))
                continue
            self.stmt(s, rvs, function_level)
            printed = True
        if not printed and empty is not None:
            self.doc.line(empty)

    def _indented(self, body: Stmt | None, rvs: tuple[Var, ...] = ()) -> None:
        self.doc.push()
        self.block(body, rvs)
        self.doc.pop()

    def stmt(self, s: Stmt, rvs: tuple[Var, ...] = (), function_level: bool = False) -> None:
        doc, ctx = self.doc, self.ctx
        if s.comments and type(s) is not SeqStmts:
            doc.comments(s.comments)
        # The union itself, without a call (`stmt_kind` or `typing.cast` would add one per statement).
        kind: StmtKind = s  # type: ignore[assignment]
        match kind:
            case AssignStmt(var=var, value=value):
                self._typed_ending_in(var, value)
            case EvalStmt(expr=expr):
                self._ending_in("", expr)
            case ReturnStmt(values=values):
                self._return(values)
            case YieldStmt(values=values):
                self._yield(values, rvs, function_level)
            case BreakStmt():
                doc.line("break")
            case ContinueStmt():
                doc.line("continue")
            case ForStmt():
                self._for(kind)
            case WhileStmt():
                self._while(kind)
            case IfStmt():
                for v in _undeclared_by_yields(kind):
                    self._typed(v, "")
                doc.line("if " + expr_text(kind.condition, ctx) + ":")
                self._indented(kind.then_body, kind.return_vars)
                if kind.else_body is not None:
                    doc.line("else:")
                    self._indented(kind.else_body, kind.return_vars)
            case ScopeStmt():
                self._scope(kind, rvs)
            case SeqStmts():
                self.block(kind, rvs, function_level, empty=None)
            case _:
                assert_never(kind)

    def _return(self, values: tuple[Expr, ...]) -> None:
        if not values:
            self.doc.line("return")
        elif len(values) == 1:
            self._ending_in("return ", values[0])
        else:
            self.doc.line("return " + ", ".join(expr_text(v, self.ctx) for v in values))

    def _yield(self, values: tuple[Expr, ...], rvs: tuple[Var, ...], function_level: bool) -> None:
        if function_level:
            self._return(values)
            return
        items = [expr_text(v, self.ctx) for v in values]
        if len(rvs) == 1:
            self._typed(rvs[0], " = " + self.ctx.dsl("yield_") + "(", items, ")")
            return
        if rvs:
            head = ", ".join(self.ctx.name_of(v) for v in rvs) + " = "
        else:
            head = ""
        self.doc.group(head + self.ctx.dsl("yield_") + "(", items, ")")

    def _for(self, s: ForStmt) -> None:
        ctx = self.ctx
        target = ctx.name_of(s.loop_var)
        if s.iter_args:
            target += ", " + tuple_text([ctx.name_of(ia) for ia in s.iter_args])
        bounds: list[Expr] = [s.stop]
        if not _is_index(s.step, 1):
            bounds = [s.start, s.stop, s.step]
        elif not _is_index(s.start, 0):
            bounds = [s.start, s.stop]
        items = [expr_text(b, ctx) for b in bounds]
        if s.iter_args:
            items.append("init_values=" + tuple_text([expr_text(ia.init, ctx) for ia in s.iter_args]))
        attrs = list(s.attrs)
        if s.kind is ForKind.Pipeline:
            stages = [v for k, v in attrs if k == "pipeline_stages"]
            attrs = [(k, v) for k, v in attrs if k != "pipeline_stages"]
            if stages:
                items.append("stage=" + value_text(stages[0], ctx))
        if attrs:
            items.append("attrs=" + dict_text(attrs, ctx))
        self.doc.line("for " + target + " in " + call_text(ctx.dsl(_RANGE_CALLS[s.kind]), items) + ":")
        self._indented(s.body, s.return_vars)

    def _while(self, s: WhileStmt) -> None:
        ctx, doc = self.ctx, self.doc
        if not s.iter_args:
            doc.line("while " + expr_text(s.condition, ctx) + ":")
            self._indented(s.body, s.return_vars)
            return
        target = tuple_text([ctx.name_of(ia) for ia in s.iter_args])
        inits = tuple_text([expr_text(ia.init, ctx) for ia in s.iter_args])
        doc.line("for " + target + " in " + call_text(ctx.dsl("while_"), ["init_values=" + inits]) + ":")
        doc.push()
        doc.group(ctx.dsl("cond") + "(", [expr_text(s.condition, ctx)], ")")
        if not (isinstance(s.body, SeqStmts) and not s.body.stmts):
            self.block(s.body, s.return_vars)
        doc.pop()

    def _scope(self, s: ScopeStmt, rvs: tuple[Var, ...]) -> None:
        ctx = self.ctx
        loop = scope_loop_form(s, ctx)
        if loop is not None:
            # `for i in pl.spmd(...)` / `for aiv_id in pl.split_aiv(2, ...)`: the binding of the
            # index the body starts with is the loop variable (the frontend makes it again).
            var, rest, func, items = loop
            name = "aiv_id" if var is None else ctx.name_of(var)
            self.doc.line("for " + name + " in " + call_text(ctx.dsl(func), items) + ":")
            self._indented(make_body(rest), rvs)
            return
        head = "with " + call_text(ctx.dsl(_SCOPE_CALLS[s.kind]), _scope_items(s.args, ctx))
        if s.task_id is not None:
            head += " as " + ctx.name_of(s.task_id)
        self.doc.line(head + ":")
        # Scopes are transparent: a yield directly inside still binds the enclosing return vars.
        self._indented(s.body, rvs)



def _undeclared_by_yields(s: IfStmt) -> list[Var]:
    """The results of an if that print as `p: T` lines before it: those of a tuple yield
    (`p, q = pl.yield_(a, b)`, which has no place for a type) whose type is not the type of the
    value its branches' first yield gives, which is what the frontend would type them by
    otherwise. Memory-space inference retypes such a result when a loop carries it into an
    accumulator (pass.md, ForStmt back-propagation)."""
    if len(s.return_vars) < 2:
        return []  # a single result prints annotated at its yield: `p: T = pl.yield_(a)`
    first = last_yield(s.then_body) or last_yield(s.else_body)
    return [v for i, v in enumerate(s.return_vars) if type(v.type) is not UnknownType
            and (first is None or i >= len(first.values) or first.values[i].type != v.type)]


def _scope_items(args: tuple[tuple[str, Any], ...], ctx: PrintContext) -> list[str]:
    """A scope call's arguments: `pl.spmd`'s block count first and bare, the "split" and
    "slot_num" args as one `optimizations=[pl.split(..), pl.cross_core_slot(..)]` where the
    first of them stands, the others as keywords in their order."""
    items: list[str] = []
    opts: list[str] = []
    for k, v in args:
        if k == "core_num":
            items.insert(0, value_text(v, ctx))
            continue
        if k in ("split", "slot_num"):
            if not opts:
                items.append("")  # the place of optimizations=[...]
            opts.append(call_text(ctx.dsl("split"), [enum_text(v, ctx)]) if k == "split"
                        else call_text(ctx.dsl("cross_core_slot"), ["slot_num=" + value_text(v, ctx)]))
            continue
        # An enum member by its name (pl.SplitMode's members are ints, not cast modes).
        items.append(k + "=" + (enum_text(v, ctx) if isinstance(v, Enum) else value_text(v, ctx, k)))
    return [it if it else "optimizations=" + list_text(opts) for it in items]


def scope_loop_form(s: ScopeStmt, ctx: PrintContext
               ) -> tuple[Var | None, list[Stmt], str, list[str]] | None:
    """(loop variable, rest of the body, DSL call, its arguments) when `s` prints as a loop: a
    SplitAiv scope (its variable is the `aiv_id = tile.get_subblock_idx()` its body starts with;
    a region without one - none of pl's passes drops it - prints its whole body under a fresh
    `aiv_id`, as the reference does), or a Spmd scope without a task id around an InCore scope
    (level and optimizations only) starting with `i = tile.get_block_idx()`."""
    if s.kind is ScopeKind.SplitAiv:
        stmts = flatten_body(s.body)
        mode = dict(s.args).get("mode")
        assert isinstance(mode, Enum)  # the frontend's SplitAiv scopes carry their mode
        items = ["2", "mode=" + enum_text(mode, ctx)]
        if not _binds_index(stmts, "tile.get_subblock_idx"):
            return None, stmts, "split_aiv", items
        return _index_var(stmts), stmts[1:], "split_aiv", items
    if s.kind is not ScopeKind.Spmd or s.task_id is not None:
        return None
    inner = s.body
    if not (isinstance(inner, ScopeStmt) and inner.kind is ScopeKind.InCore
            and inner.task_id is None and inner.args[:1] == (("level", Level.CORE_GROUP),)
            and all(k in ("split", "slot_num") for k, _ in inner.args[1:])):
        return None
    stmts = flatten_body(inner.body)
    if not _binds_index(stmts, "tile.get_block_idx"):
        return None
    return _index_var(stmts), stmts[1:], "spmd", _scope_items((*s.args, *inner.args[1:]), ctx)


def _binds_index(stmts: list[Stmt], op: str) -> bool:
    first = stmts[0] if stmts else None
    return (isinstance(first, AssignStmt) and isinstance(first.value, Call)
            and first.value.op_name == op and not first.value.args and not first.comments)


def _index_var(stmts: list[Stmt]) -> Var:
    first = stmts[0]
    assert isinstance(first, AssignStmt)  # _binds_index said so
    return first.var
