"""`pl`: a Python frontend for tile kernels.

This module is only a face: it re-exports the language surface (types, loops, ops: `pl.language`)
and the tools (the decorators, `parse`, `compile`, `passes`, `python_print`, `structural_equal`,
`interpret`, `show_inferred`). Nothing is defined here, and importing it changes nothing outside pl.

Why the tools come through `__getattr__`: `pl` is also the parent package of the lowest layers
(`pl.ir`, `pl.errors`, `pl.language`, ...), so Python runs this file before any of them, also
when lowering or infer is imported first. Importing here only what sits below lowering keeps every
module importable first; the compiler's layers load on the first use of a name that needs them.
"""

from typing import TYPE_CHECKING

from pl.errors import PlError as PlError
from pl.language import *  # noqa: F403  (pl.Tile / pl.Tensor / ..., loops, dtypes, ops, namespaces)
from pl.language import __all__ as _language_names
from pl.printer.program import print_node as python_print
from pl.structural import assert_structural_equal as assert_structural_equal
from pl.structural import structural_equal as structural_equal
from pl.structural import structural_hash as structural_hash

if TYPE_CHECKING:
    from pl import passes as passes
    from pl.compiler import Compiled as Compiled
    from pl.compiler import compile_program as compile  # noqa: A001  (the reference's name)
    from pl.lowering.frontend.lower import function as function
    from pl.lowering.frontend.lower import inline as inline
    from pl.lowering.frontend.lower import program as program
    from pl.lowering.frontend.parse import parse as parse


def __getattr__(name: str) -> object:
    import importlib

    # The tools above the language surface (see the module docstring).
    match name:
        case "function" | "inline" | "program":
            return getattr(importlib.import_module("pl.lowering.frontend.lower"), name)
        case "parse":  # pl.parse: program text -> Program | Function
            return importlib.import_module("pl.lowering.frontend.parse").parse
        case "passes":
            return importlib.import_module("pl.passes")
        case "compile":  # the reference's name: ir.compile
            return importlib.import_module("pl.compiler").compile_program
        case "Compiled":
            return importlib.import_module("pl.compiler").Compiled
        # `pl.show_inferred(path_or_text, ...)`: the module is callable (and `python -m
        # pl.show_inferred` must not find it already imported: runpy warns about that).
        case "show_inferred":
            return importlib.import_module("pl.show_inferred")
        # `pl.interpret(program, *arrays)` needs numpy, an optional extra.
        case "interpret":
            try:
                return importlib.import_module("pl.interpreter").interpret
            except ModuleNotFoundError as e:
                if e.name != "numpy":
                    raise
                raise ImportError("pl.interpret needs numpy: pip install 'pl-tile[interpret]'") from None
    if name.startswith("__"):  # Python's own protocol probes (`__path__`, ...): the plain answer
        raise AttributeError(f"module 'pl' has no attribute {name!r}")
    from pl.errors import UnknownNameError, suggest

    raise UnknownNameError(f"Unknown name 'pl.{name}'", hint=suggest(name, __all__, "pl.")
                           or "see `dir(pl)` for the DSL's names").uncaught()


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, "interpret", "show_inferred"})


__all__ = [*_language_names, "Compiled", "PlError", "assert_structural_equal", "compile", "function",
           "inline", "parse", "passes", "program", "python_print", "structural_equal", "structural_hash"]
