"""`pl.parse(text, filename="<string>")`: program text (ours or the reference printer's) to a Program or a Function.

Guarantees: an error located in the text carries the text (`PlError.source`), so it shows its
lines; nothing of the text is kept once the parse returns (it is not registered in `linecache`,
which would keep every parsed file for the life of the process); the text is never executed: top-level imports of `pl` / `pypto.language` bind pl's kernel surface, and
constants (`X = pl.dynamic("X")`, `N = 128`, `M = pl.MemRef(...)`, ...) bind the values the static
evaluator gives them (lowering/source/static_eval.py), and the one `@pl.program` class or
`@pl.function` function is lowered with the same frontend as the decorators (`@pl.inline` functions
are bound for the kernels that call them). Free names used as
dims (printed programs omit their `pl.dynamic` lines) become dynamic dims.
"""

from __future__ import annotations

import ast
from typing import Any

import libcst as cst

from pl.deep_stack import on_deep_stack
from pl.errors import PlError
from pl.gc_pause import gc_paused
from pl.ir.function import Function, Program
from pl.lowering.frontend.context import ProgCtx, dotted
from pl.lowering.frontend.inline import inline_function
from pl.lowering.frontend.lower import (
    function_decorator,
    is_inline_decorated,
    is_program_decorator,
    lower_class_node,
    lower_function_node,
)
from pl.lowering.frontend.source import SourceFile
from pl.lowering.source.python import decode
from pl.lowering.source.static_eval import LIMIT_HINT, NotStatic, TooBig
from pl.lowering.source.static_module import constant_value, pl_module, pl_submodule, pl_surface


def _bind_import(ns: dict[str, Any], stmt: cst.Import | cst.ImportFrom, prog: ProgCtx) -> None:
    """Imports of `pl` / `pypto.language` only (bound as static loading binds them)."""
    if isinstance(stmt, cst.Import):
        for alias in stmt.names:
            name = dotted(alias.name)
            if pl_module(name) is None:
                raise prog.src.error(alias, f"Unsupported import '{name}' in parsed text",
                                     hint="Parsed text may only import pl (or pypto.language)")
            as_name = alias.asname.name if alias.asname is not None else None
            if isinstance(as_name, cst.Name):
                ns[as_name.value] = pl_module(name)
            else:  # `import pypto.language` binds `pypto`
                ns[name.split(".")[0]] = pl_module(name.split(".")[0])
        return
    module = dotted(stmt.module) if stmt.module is not None else ""
    source = pl_module(module) if not stmt.relative else None
    if isinstance(stmt.names, cst.ImportStar):
        if module in ("pl", "pypto.language"):
            ns.update(pl_surface().names)
            return
        raise prog.src.error(stmt, f"Unsupported import from '{module}' in parsed text")
    for alias in stmt.names:
        name = dotted(alias.name)
        obj = pl_submodule(module, name) if not stmt.relative else None
        if obj is None:
            obj = getattr(source, name, None) if source is not None else None
        if obj is None:
            raise prog.src.error(alias, f"Unsupported import '{module}.{name}' in parsed text")
        target = alias.asname.name if alias.asname is not None else alias.name
        assert isinstance(target, cst.Name | cst.Attribute)
        ns[dotted(target)] = obj


def _bind_assign(ns: dict[str, Any], stmt: cst.Assign, prog: ProgCtx) -> None:
    if len(stmt.targets) != 1 or not isinstance(stmt.targets[0].target, cst.Name):
        raise prog.src.error(stmt, "Only `NAME = value` assignments are allowed at top level")
    name = stmt.targets[0].target.value
    try:
        ns[name] = constant_value(ns, stmt.value, prog.src)
    except TooBig as e:
        raise prog.src.error(e.node, f"The top-level constant '{name}' is refused: {e.reason}",
                             hint=LIMIT_HINT) from None
    except NotStatic as e:
        raise prog.src.error(e.node, f"The value of top-level constant '{name}' cannot be "
                                     f"evaluated: {e.reason}",
                             hint="Parsed text is never executed: constants may be numbers, "
                                  "strings, arithmetic, lists / tuples, other constants, pl "
                                  "enum members and pl.MemRef / pl.TileView / pl.TensorView / "
                                  "pl.dynamic calls") from None


@gc_paused()
def parse(text: str | bytes, filename: str = "<string>") -> Program | Function:
    """The one program or function defined in `text` (bytes are decoded as Python decodes a
    source file; the text is read as Python reads it: lowering/source/python.py)."""
    if isinstance(text, bytes):
        text, _ = decode(text, filename)
    try:
        return on_deep_stack(lambda: _lower(SourceFile(filename, text)))
    except PlError as e:
        raise e.in_text(filename, text) from None


@gc_paused()
def parse_tree(text: str, tree: cst.Module, python_tree: ast.Module,
               filename: str = "<string>") -> Program | Function:
    """`parse` of a text the caller has parsed (the benchmark times lowering apart from the
    parses): `tree` is `libcst.parse_module(python_view(text))` and `python_tree` is
    `lowering.source.python.parse_python(python_view(text), filename)` (for an ASCII text without
    form feeds, `python_view(text)` is `text`)."""
    return on_deep_stack(lambda: _lower(SourceFile(filename, text, (tree, python_tree))))


def _lower(src: SourceFile) -> Program | Function:
    filename = src.filename
    ns: dict[str, Any] = {"pl": pl_surface()}
    prog = ProgCtx(src, ns, auto_dynamic=True)
    found: list[Program | Function] = []
    defs: list[cst.ClassDef | cst.FunctionDef] = []  # the definition of each, for locating errors
    for stmt in src.module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Import | cst.ImportFrom):
                    _bind_import(ns, small, prog)
                elif isinstance(small, cst.Assign):
                    _bind_assign(ns, small, prog)
                elif isinstance(small, cst.Expr | cst.Pass):
                    continue
                else:
                    raise src.error(small, f"Unsupported top-level statement: {type(small).__name__}")
        elif isinstance(stmt, cst.ClassDef) and any(is_program_decorator(prog, d)
                                                    for d in stmt.decorators):
            strict = _strict(prog, stmt)
            prog_i = ProgCtx(src, ns, auto_dynamic=True, strict_ssa=strict, auto_dyn=prog.auto_dyn)
            found.append(lower_class_node(prog_i, stmt))
            defs.append(stmt)
        elif isinstance(stmt, cst.FunctionDef) and is_inline_decorated(prog, stmt):
            ns[stmt.name.value] = inline_function(prog, stmt)
        elif isinstance(stmt, cst.FunctionDef) and function_decorator(prog, stmt) is not None:
            prog_i = ProgCtx(src, ns, auto_dynamic=True, auto_dyn=prog.auto_dyn)
            found.append(lower_function_node(prog_i, stmt))
            defs.append(stmt)
        else:
            raise src.error(stmt, "Only imports, constants, @pl.program classes, @pl.function "
                                  "and @pl.inline functions are allowed at top level of parsed "
                                  "text")
    if not found:
        raise PlError(f"No @pl.function or @pl.program found in {filename}")
    if len(found) > 1:
        raise src.error(defs[1].name, f"Multiple functions/programs found in {filename}; pl.parse "
                                      "expects one", hint="give pl.parse each program's text alone")
    return found[0]


def _strict(prog: ProgCtx, cd: cst.ClassDef) -> bool:
    for d in cd.decorators:
        if isinstance(d.decorator, cst.Call):
            for a in d.decorator.args:
                if a.keyword is not None and a.keyword.value == "strict_ssa":
                    return isinstance(a.value, cst.Name) and a.value.value == "True"
    return False


