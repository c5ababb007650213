"""The printer: IR -> canonical typed Python source in the DSL (dsl.md section 4 + section 0).

Guarantees: the output is built as a `libcst.Module` and returned as its code (rendered by
printer_codegen, which equals LibCST's `.code`), so it is valid Python that LibCST re-reads to the
identical text; it starts with `import pl`, then two blank lines,
then `@pl.program` / `class <Name>:` (or the bare `@pl.function` of a standalone Function). Functions
come callees first (DFS over the name-sorted functions), methods take `self` and are separated by
one blank line, memory spaces print as `pl.MemorySpace.X` (`pl.Mem.X` with mem_alias=True), and
lines longer than 100 columns are wrapped deterministically (printer_wrap). Printing is pure
(one LibCST node per distinct type or variable is shared by the statements that print it; the
cyclic GC is paused while printing).

Speed (about linear in the statements): each function's body is walked once for both namings and
the callee-first order (printer_names.collect), hot nodes are built without re-validation
(printer_nodes), and each statement is rendered once (printer_wrap, printer_codegen) - the most
common one not even that: its text is composed from its parts' texts (printer_stmts).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import libcst as cst

from pl.gc_pause import gc_paused
from pl.ir.enums import FunctionType, ParamDirection, default_level_role
from pl.ir.expr import Call, Expr, GlobalVar, Var
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
)
from pl.ir.types import Type, UnknownType
from pl.printer.codegen import code, forget_rendered, module_code
from pl.printer.exprs import Ctx, call, default_ctx, dict_node, dotted, expr_node, type_node
from pl.printer.names import Collector, Names, children_of, collect, dynamic_dims
from pl.printer.stmts import StmtPrinter, comment_lines
from pl.printer.wrap import wrap_def

__all__ = ["callees", "print_expr", "print_node", "print_type", "printed_module"]

def print_type(t: Type, *, mem_alias: bool = False) -> str:
    """A type as written in an annotation, e.g. `pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec]`."""
    return code(type_node(t, Ctx(name_of=lambda v: v.name, mem_alias=mem_alias)))


def print_expr(e: Expr, *, mem_alias: bool = False) -> str:
    """An expression as printed in a statement (Vars by their name hints, no disambiguation)."""
    ctx = default_ctx() if not mem_alias else Ctx(name_of=lambda v: v.name, mem_alias=True)
    return code(expr_node(e, ctx))


def print_node(node: Program | Function, *, mem_alias: bool = False) -> str:
    """Canonical typed source of a program (or of one standalone function)."""
    with gc_paused():
        return module_code(_module(node, mem_alias=mem_alias))


def printed_module(node: Program | Function, *, mem_alias: bool = False) -> cst.Module:
    """The LibCST module whose code `print_node` returns (for tests: LibCST's own rendering of
    it equals the printer's text)."""
    with gc_paused():
        module = _module(node, mem_alias=mem_alias)
        forget_rendered()
        return module


def _module(node: Program | Function, *, mem_alias: bool = False) -> cst.Module:
    import_line = cst.SimpleStatementLine([cst.Import(names=[cst.ImportAlias(name=cst.Name("pl"))])])
    if isinstance(node, Program):
        # One walk per function, for both namings and the callees.
        collected_by_name = {f.name: collect(f) for f in node.functions}
        functions = _callee_first(node.functions, lambda f: collected_by_name[f.name].callees)
        collected = [collected_by_name[f.name] for f in functions]
    else:
        functions = [node]
        collected = [collect(node)]
    dyn = dynamic_dims(functions, collected)
    body: list[cst.SimpleStatementLine | cst.BaseCompoundStatement] = [import_line]
    for i, (var, name) in enumerate(sorted(dyn.items(), key=lambda kv: kv[1])):
        decl = cst.Assign(targets=[cst.AssignTarget(cst.Name(name))],
                          value=call("pl.dynamic", [cst.SimpleString('"' + var.name + '"')]))
        body.append(cst.SimpleStatementLine([decl], leading_lines=[cst.EmptyLine(indent=False)] if i == 0 else []))
    two_blank = [cst.EmptyLine(indent=False), cst.EmptyLine(indent=False)]
    if isinstance(node, Program):
        methods: list[cst.BaseStatement] = []
        for i, (f, c) in enumerate(zip(functions, collected, strict=True)):
            fd = _function(f, dyn, mem_alias, in_program=True, collected=c)
            methods.append(fd.with_changes(leading_lines=[*([cst.EmptyLine(indent=False)] if i else []),
                                                          *fd.leading_lines]))
        if not methods:
            methods = [cst.SimpleStatementLine([cst.Pass()])]
        body.append(cst.ClassDef(name=cst.Name(node.name or "Program"), body=cst.IndentedBlock(methods),
                                 decorators=[cst.Decorator(dotted("pl.program"))], leading_lines=two_blank))
    else:
        fd = _function(node, dyn, mem_alias, in_program=False, collected=collected[0])
        body.append(fd.with_changes(leading_lines=[*two_blank, *fd.leading_lines]))
    return cst.Module(body=body)


def _decorator(f: Function) -> cst.Decorator:
    default_level, default_role = default_level_role(f.func_type)
    kwargs: list[tuple[str, cst.BaseExpression]] = []
    if f.func_type is not FunctionType.Opaque:
        kwargs.append(("type", dotted(f"pl.FunctionType.{f.func_type.name}")))
    if f.level is not None and f.level != default_level:
        kwargs.append(("level", dotted(f"pl.Level.{f.level.name}")))
    if f.role is not None and f.role != default_role:
        kwargs.append(("role", dotted(f"pl.Role.{f.role.name}")))
    if not kwargs:
        return cst.Decorator(dotted("pl.function"))
    return cst.Decorator(call("pl.function", [], kwargs))


def _param_annotation(v: Var, direction: ParamDirection, ctx: Ctx) -> cst.BaseExpression:
    t = type_node(v.type, ctx)
    if direction is ParamDirection.In:
        return t
    return cst.Subscript(value=dotted(f"pl.{direction.name}"), slice=[cst.SubscriptElement(cst.Index(t))])


def _returns(types: tuple[Type, ...], ctx: Ctx) -> cst.Annotation | None:
    if not types or any(isinstance(t, UnknownType) for t in types):
        return None
    if len(types) == 1:
        node: cst.BaseExpression = type_node(types[0], ctx)
    else:
        node = cst.Subscript(value=cst.Name("tuple"),
                             slice=[cst.SubscriptElement(cst.Index(type_node(t, ctx))) for t in types])
    return cst.Annotation(node, whitespace_before_indicator=cst.SimpleWhitespace(" "))


def _function(f: Function, dyn: dict[Var, str], mem_alias: bool, in_program: bool,
              collected: Collector) -> cst.FunctionDef:
    names = Names.for_function(f, dyn, collected)
    ctx = Ctx(name_of=names, mem_alias=mem_alias, in_program=in_program)
    depth = 2 if in_program else 1
    params = [cst.Param(cst.Name("self"))] if in_program else []
    directions = list(f.directions) + [ParamDirection.In] * (len(f.params) - len(f.directions))
    for p, d in zip(f.params, directions, strict=True):
        params.append(cst.Param(cst.Name(names(p)), annotation=cst.Annotation(_param_annotation(p, d, ctx))))
    stmts: list[cst.BaseStatement] = []
    if f.attrs:
        stmts.append(cst.SimpleStatementLine([cst.Expr(call("pl.func_attr", [dict_node(list(f.attrs), ctx)]))]))
    body = StmtPrinter(ctx).block(f.body, depth, function_level=True)
    if stmts and len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) \
            and isinstance(body[0].body[0], cst.Pass):
        body = []
    fd = cst.FunctionDef(name=cst.Name(f.name), params=cst.Parameters(params=params),
                         body=cst.IndentedBlock([*stmts, *body]), decorators=[_decorator(f)],
                         returns=_returns(f.return_types, ctx), leading_lines=comment_lines(f.comments))
    return wrap_def(fd, 4 * (depth - 1))


# ---- callee-first order --------------------------------------------------------------------


def _stmt_exprs(s: Stmt) -> Iterator[Expr]:
    match s:
        case AssignStmt(value=value):
            yield value
        case EvalStmt(expr=expr):
            yield expr
        case ReturnStmt(values=values) | YieldStmt(values=values):
            yield from values
        case ForStmt():
            yield from (s.start, s.stop, s.step, *(ia.init for ia in s.iter_args))
        case WhileStmt():
            yield from (*(ia.init for ia in s.iter_args), s.condition)
        case IfStmt(condition=condition):
            yield condition
        case _:
            return


def _sub_bodies(s: Stmt) -> list[Stmt]:
    match s:
        case SeqStmts(stmts=stmts):
            return list(stmts)
        case ForStmt(body=body) | WhileStmt(body=body) | ScopeStmt(body=body):
            return [body]
        case IfStmt(then_body=then_body, else_body=else_body):
            return [then_body] if else_body is None else [then_body, else_body]
        case _:
            return []


def callees(f: Function) -> list[str]:
    """Names of the program functions `f` calls, in order of first call."""
    found: dict[str, None] = {}
    stmts: list[Stmt] = [f.body]
    while stmts:
        s = stmts.pop()
        if type(s) is AssignStmt:
            exprs = [s.value]  # most statements: one expression, no body (no matching for them)
        else:
            stmts.extend(reversed(_sub_bodies(s)))
            exprs = list(_stmt_exprs(s))[::-1]
        while exprs:
            e = exprs.pop()
            if isinstance(e, Var):
                continue
            if isinstance(e, Call) and isinstance(e.op, GlobalVar):
                found.setdefault(e.op.name, None)
            children = children_of(e)
            if children:
                exprs.extend(reversed(children))
    return list(found)


def _callee_first(functions: tuple[Function, ...],
                  callees_of: Callable[[Function], list[str]] = callees) -> list[Function]:
    by_name = {f.name: f for f in functions}
    order: list[Function] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        # Marked before the callees, so a call cycle falls back to name order instead of looping.
        seen.add(name)
        for callee in sorted(callees_of(by_name[name])):
            if callee in by_name and callee not in seen:
                visit(callee)
        order.append(by_name[name])

    for name in sorted(by_name):
        if name not in seen:
            visit(name)
    return order

