"""`pl`: a Python frontend for tile kernels.

This module is only a face: it re-exports the language surface (types, loops, ops: `pl.language`)
and the tools (the decorators, `parse`, `compile`, `passes`, `python_print`, `structural_equal`,
`interpret`, `show_inferred`). Nothing is defined here, and importing it changes nothing outside pl.

Every name loads on its first use (`__getattr__`), and `import pl` alone imports nothing else, for
two reasons. `pl` is the parent package of every layer (`pl.ir`, `pl.errors`, `pl.language`, ...),
so Python runs this file before any of them, also when lowering or infer is imported first: a layer
imported here would be loaded under every other one. And `python -m pl.show_inferred --help`, or a
compile-cache hit, needs none of the compiler: importing the language surface here (the IR, the op
registry) would cost every run of the command a fifth of a second.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pl import passes as passes
    from pl.compiler import Compiled as Compiled
    from pl.compiler import compile_program as compile  # noqa: A001, F401  (the reference's name)
    from pl.errors import PlError as PlError
    from pl.language import *  # noqa: F403  (pl.Tile / pl.Tensor / ..., loops, dtypes, ops, namespaces)
    from pl.lowering.frontend.lower import function as function
    from pl.lowering.frontend.lower import inline as inline
    from pl.lowering.frontend.lower import program as program
    from pl.lowering.frontend.parse import parse as parse
    from pl.printer.program import print_node as python_print  # noqa: F401  (re-exported)
    from pl.structural import assert_structural_equal as assert_structural_equal
    from pl.structural import structural_equal as structural_equal
    from pl.structural import structural_hash as structural_hash

# The names of `__all__` besides the language surface's (`pl.language.__all__`).
_TOOLS = ("Compiled", "PlError", "assert_structural_equal", "compile", "function", "inline", "parse",
          "passes", "program", "python_print", "structural_equal", "structural_hash")


def _names() -> list[str]:
    """`__all__`: the language surface's names and the tools'."""
    import importlib

    return [*importlib.import_module("pl.language").__all__, *_TOOLS]


def __getattr__(name: str) -> object:
    import importlib

    match name:
        case "__all__":  # `from pl import *`, `dir(pl)`
            return _names()
        case "PlError":
            return importlib.import_module("pl.errors").PlError
        case "python_print":
            return importlib.import_module("pl.printer.program").print_node
        case "assert_structural_equal" | "structural_equal" | "structural_hash":
            return getattr(importlib.import_module("pl.structural"), name)
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
    language = importlib.import_module("pl.language")
    if name in language.NAMES:
        return getattr(language, name)
    from pl.errors import UnknownNameError, suggest

    raise UnknownNameError(f"Unknown name 'pl.{name}'", hint=suggest(name, _names(), "pl.")
                           or "see `dir(pl)` for the DSL's names").uncaught()


def __dir__() -> list[str]:
    return sorted({*globals(), *_names(), "interpret", "show_inferred"})
