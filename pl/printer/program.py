"""The printer: IR -> canonical typed Python source in the DSL (dsl.md section 4 + section 0).

Guarantees: the output is text written line by line through a small document builder
(pl/printer/doc.py); it starts with `import pl`, then two blank lines, then `@pl.program` /
`class <Name>:` (or the bare `@pl.function` of a standalone Function). Functions come callees first
(DFS over the name-sorted functions), methods take `self` and are separated by one blank line,
memory spaces print as `pl.MemorySpace.X` (`pl.Mem.X` with mem_alias=True), and a line longer than
100 columns that ends in a call's arguments or a def's parameters is wrapped by doc.py's one rule.
That the text parses back to the same program is checked by the round-trip and idempotence tests
(tests/test_round_trip.py, tests/test_properties.py), not by construction. Printing is pure: its
memos (type texts) live on the per-function `PrintContext` and die with the call.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Final

from pl.deep_stack import on_deep_stack
from pl.gc_pause import gc_paused
from pl.ir.enums import FunctionType, ParamDirection, default_level_role
from pl.ir.expr import Call, Expr, Var
from pl.ir.function import Function, Program
from pl.ir.stmt import Stmt
from pl.ir.types import Type, UnknownType
from pl.printer.doc import WIDTH, Doc
from pl.printer.exprs import (
    PrintContext,
    call_parts,
    call_text,
    default_ctx,
    dict_text,
    expr_text,
    type_text,
)
from pl.printer.names import Collector, Names, collect, dynamic_dims
from pl.printer.stmts import StmtPrinter, statement_text

__all__ = ["callees", "decorator_text", "print_call_parts", "print_expr", "print_node", "print_stmt",
           "print_type"]


def print_type(t: Type, *, mem_alias: bool = False, root: str = "pl",
               name_of: Callable[[Var], str] | None = None,
               dim_names: Mapping[int, str] | None = None) -> str:
    """A type as written in an annotation, e.g. `pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec]`
    (Vars in it by `name_of`, their name hints by default; the DSL module spelled `root`; a
    constant dim of its shape by its name in `dim_names`, by value, if there)."""
    return type_text(t, PrintContext(name_of=name_of or _hint, mem_alias=mem_alias, root=root,
                                     dim_names=dim_names or {}))


def print_expr(e: Expr, *, mem_alias: bool = False, root: str = "pl",
               name_of: Callable[[Var], str] | None = None) -> str:
    """An expression as printed in a statement (Vars by their name hints, no disambiguation)."""
    ctx = default_ctx() if name_of is None and not mem_alias and root == "pl" else \
        PrintContext(name_of=name_of or _hint, mem_alias=mem_alias, root=root)
    return expr_text(e, ctx)


def print_stmt(s: Stmt, *, indent: str = "", rvs: tuple[Var, ...] = (), mem_alias: bool = False,
               root: str = "pl", name_of: Callable[[Var], str] | None = None,
               dim_names: Mapping[int, str] | None = None) -> str:
    """One statement as the printer writes it inside a function at `indent` (its lines, each
    ending in a newline, wrapped at that indentation; `rvs`: the return vars a yield binds;
    `dim_names` as for `print_type`, in the types it writes)."""
    ctx = PrintContext(name_of=name_of or _hint, mem_alias=mem_alias, root=root,
                       dim_names=dim_names or {})
    return statement_text(s, ctx, indent, rvs)


def print_call_parts(call: Call, *, root: str = "pl", name_of: Callable[[Var], str] | None = None,
                     dim_names: Mapping[int, str] | None = None) -> tuple[str, list[str]]:
    """The callee and the argument texts (each without its comma) that `print_stmt` writes a
    statement ending in `call` with, before wrapping them (pl/printer/doc.py)."""
    ctx = PrintContext(name_of=name_of or _hint, root=root, dim_names=dim_names or {})
    return call_parts(call, ctx)


def _hint(v: Var) -> str:
    return v.name


@gc_paused()
def print_node(node: Program | Function, *, mem_alias: bool = False, width: int = WIDTH) -> str:
    """Canonical typed source of a program (or of one standalone function). `mem_alias=True`
    spells memory spaces `pl.Mem.X` (the reference printer's spelling) instead of
    `pl.MemorySpace.X`; `width` is the column count the one wrapping rule keeps lines within
    (the reference formats at 200)."""
    if width < 1:
        raise ValueError(f"width must be a positive column count, got {width}")
    return on_deep_stack(lambda: _module(node, mem_alias=mem_alias, width=width))


def _module(node: Program | Function, *, mem_alias: bool = False, width: int = WIDTH) -> str:
    doc = Doc(width=width)
    doc.line("import pl")
    if isinstance(node, Program):
        # One walk per function, for both namings and the callees.
        collected_by_name = {f.name: collect(f) for f in node.functions}
        functions = _callee_first(node.functions, lambda f: collected_by_name[f.name].callees)
        collected = [collected_by_name[f.name] for f in functions]
    else:
        functions = [node]
        collected = [collect(node)]
    dyn = dynamic_dims(functions, collected)
    for i, (var, name) in enumerate(sorted(dyn.items(), key=lambda kv: kv[1])):
        if i == 0:
            doc.line("")
        doc.line(name + ' = pl.dynamic("' + var.name + '")')
    doc.line("")
    doc.line("")
    if isinstance(node, Program):
        doc.line("@pl.program")
        doc.line("class " + (node.name or "Program") + ":")
        doc.push()
        for i, (f, c) in enumerate(zip(functions, collected, strict=True)):
            if i:
                doc.line("")
            _function(doc, f, dyn, mem_alias, in_program=True, collected=c)
        if not functions:
            doc.line("pass")
        doc.pop()
    else:
        _function(doc, node, dyn, mem_alias, in_program=False, collected=collected[0])
    text = doc.text()
    if _PLD_USE.search(text):  # a distributed type or op: the module its spellings name
        head, _, rest = text.partition("\n")
        text = head + "\n" + PLD_IMPORT + "\n" + rest
    return text


# How printed text imports the distributed module, and a spelling of it (`pld.window(`,
# `pld.DistributedTensor[`) outside a name or string that merely ends in `pld`.
PLD_IMPORT: Final = "import pl.distributed as pld"
_PLD_USE: Final = re.compile(r"(?<![\w.'\"])pld\.[A-Za-z_]")


def decorator_text(f: Function, root: str = "pl", attrs: str = "") -> str:
    """`@pl.function(...)` of `f`, with `pl` spelled `root` (`attrs`: the text of its attrs,
    given in the decorator: an external kernel's, whose body is `...` alone)."""
    default_level, default_role = default_level_role(f.func_type)
    kwargs: list[str] = []
    if f.func_type is not FunctionType.Opaque:
        kwargs.append(f"type={root}.FunctionType.{f.func_type.name}")
    if f.level is not None and f.level != default_level:
        kwargs.append(f"level={root}.Level.{f.level.name}")
    if f.role is not None and f.role != default_role:
        kwargs.append(f"role={root}.Role.{f.role.name}")
    if not f.auto_scope:
        kwargs.append("auto_scope=False")
    if f.external_source is not None:
        kwargs.append(f"external_source={f.external_source!r}")
    if attrs:
        kwargs.append(f"attrs={attrs}")
    return "@" + (call_text(f"{root}.function", kwargs) if kwargs else f"{root}.function")


def _param_annotation(v: Var, direction: ParamDirection, ctx: PrintContext) -> str:
    t = type_text(v.type, ctx)
    return t if direction is ParamDirection.In else f"pl.{direction.name}[{t}]"


def _returns(types: tuple[Type, ...], ctx: PrintContext) -> str:
    if not types or any(isinstance(t, UnknownType) for t in types):
        return ""
    if len(types) == 1:
        return " -> " + type_text(types[0], ctx)
    return " -> tuple[" + ", ".join(type_text(t, ctx) for t in types) + "]"


def _function(doc: Doc, f: Function, dyn: dict[Var, str], mem_alias: bool, in_program: bool,
              collected: Collector) -> None:
    names = Names.for_function(f, dyn, collected)
    sig = PrintContext(name_of=names, mem_alias=mem_alias, in_program=in_program)
    ctx = replace(sig, allocs=frozenset(collected.defs))
    # A HOST SubWorker is self-contained (the reference refuses `self` on it).
    params = ["self"] if in_program and f.host_body is None else []
    directions = list(f.directions) + [ParamDirection.In] * (len(f.params) - len(f.directions))
    for p, d in zip(f.params, directions, strict=True):
        params.append(names(p) + ": " + _param_annotation(p, d, sig))
    doc.comments(f.comments)
    external = f.external_source is not None
    doc.line(decorator_text(f, attrs=dict_text(list(f.attrs), ctx) if external and f.attrs
                            else ""))
    doc.group("def " + f.name + "(", params, ")" + _returns(f.return_types, sig) + ":")
    doc.push()
    if f.attrs and not external:
        doc.group("pl.func_attr(", [dict_text(list(f.attrs), ctx)], ")")
    if f.host_body is not None:  # a HOST SubWorker's Python, as written
        for line in (f.host_body or "pass").split("\n"):
            doc.line(line)
    elif f.external_source is not None:  # declared: its body is C++ source outside pl
        doc.line("...")
    else:
        StmtPrinter(ctx, doc).block(f.body, function_level=True, empty=None if f.attrs else "pass")
    doc.pop()


# ---- callee-first order --------------------------------------------------------------------


def callees(f: Function) -> list[str]:
    """Names of the program functions `f` calls, in order of first call (pre-order)."""
    return collect(f).callees


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

