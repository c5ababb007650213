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

def _leave_the_working_directory() -> None:
    """`python -m pl.show_inferred` (and the hook's `python -m pl.show_inferred.hook`): Python put
    the working directory first on sys.path before any of pl's code ran, so a `json.py`,
    `typing.py` or `difflib.py` in the folder the command runs in (a repository under check)
    would be imported in place of the standard library's, and run. This takes that entry off
    before anything else is imported, when Python is locating the module of a `python -m pl...`
    (it sets sys.argv[0] to "-m" only while it imports that module's packages); pl finds its own
    modules through its package. A `pl/` folder there is imported before this can run: README,
    "Running it safely", names the invocations that never look there."""
    import os
    import sys  # both loaded before any module is looked for on sys.path

    if sys.argv[:1] != ["-m"] or getattr(sys.flags, "safe_path", False) or \
            not sys.path or sys.path[0] not in ("", os.getcwd()):
        return
    options = iter(getattr(sys, "orig_argv", [])[1:])
    for option in options:
        if option in ("-W", "-X", "--check-hash-based-pycs"):
            next(options, None)  # the option's value
        elif option.startswith(("-W", "-X", "--")):
            continue
        elif option.startswith("-") and "m" in option:  # -m NAME, -mNAME, -Im NAME
            name = option[option.index("m") + 1:] or next(options, "")
            if name == "pl" or name.startswith("pl."):
                del sys.path[0]
            return
        elif not option.startswith("-") or option.startswith("-c"):
            return


_leave_the_working_directory()
del _leave_the_working_directory

from types import MappingProxyType  # noqa: E402  (after the working directory left sys.path)
from typing import TYPE_CHECKING  # noqa: E402

if TYPE_CHECKING:
    from pl import jit as jit
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

# The tools of `__all__` (besides the language surface's `pl.language.__all__`): name -> the module
# and attribute it is (None: the module itself).
_TOOLS = MappingProxyType({
    "Compiled": ("pl.compiler", "Compiled"),
    "PlError": ("pl.errors", "PlError"),
    "assert_structural_equal": ("pl.structural", "assert_structural_equal"),
    "compile": ("pl.compiler", "compile_program"),  # the reference's name: ir.compile
    "function": ("pl.lowering.frontend.lower", "function"),
    "inline": ("pl.lowering.frontend.lower", "inline"),
    "jit": ("pl.jit", None),  # the module is callable: `@pl.jit`, `@pl.jit.incore`
    "parse": ("pl.lowering.frontend.parse", "parse"),  # program text -> Program | Function
    "passes": ("pl.passes", None),
    "program": ("pl.lowering.frontend.lower", "program"),
    "python_print": ("pl.printer.program", "print_node"),
    "structural_equal": ("pl.structural", "structural_equal"),
    "structural_hash": ("pl.structural", "structural_hash"),
})


def _names() -> list[str]:
    """`__all__`: the language surface's names and the tools'."""
    import importlib

    return [*importlib.import_module("pl.language").__all__, *_TOOLS]


def __getattr__(name: str) -> object:
    import importlib

    if name == "__all__":  # `from pl import *`, `dir(pl)`
        return _names()
    if name in _TOOLS:
        module, attr = _TOOLS[name]
        loaded = importlib.import_module(module)
        return loaded if attr is None else getattr(loaded, attr)
    # `pl.show_inferred(path_or_text, ...)`: the module is callable (and `python -m
    # pl.show_inferred` must not find it already imported: runpy warns about that).
    if name == "show_inferred":
        return importlib.import_module("pl.show_inferred")
    # `pl.interpret(program, *arrays)` needs numpy, an optional extra.
    if name == "interpret":
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
