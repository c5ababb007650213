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

from typing import TYPE_CHECKING  # noqa: E402

if TYPE_CHECKING:
    from pl import jit as jit
    from pl import passes as passes
    from pl.compiler import Compiled as Compiled
    from pl.compiler import compile_program as _compile_program
    from pl.errors import PlError as PlError
    from pl.language import *  # noqa: F403  (pl.Tile / pl.Tensor / ..., loops, dtypes, ops, namespaces)
    from pl.lowering.frontend.lower import function as function
    from pl.lowering.frontend.lower import inline as inline
    from pl.lowering.frontend.lower import program as program
    from pl.lowering.frontend.parse import parse as parse
    from pl.printer.program import print_node as _print_node
    from pl.structural import assert_structural_equal as assert_structural_equal
    from pl.structural import structural_equal as structural_equal
    from pl.structural import structural_hash as structural_hash

    # Renamed on the way out: an assignment, which mypy --strict takes as exported (an import
    # under another name is not a re-export).
    compile = _compile_program  # noqa: A001  (the reference's name)
    python_print = _print_node


def _names() -> list[str]:
    """`__all__`: the language surface's names and the tools' (pl/face.py)."""
    import importlib

    from pl.face import LOADED_ON_USE, TOOLS

    return [*importlib.import_module("pl.language").__all__,
            *(t for t in TOOLS if t not in LOADED_ON_USE)]


def __getattr__(name: str) -> object:
    import importlib

    if name == "__all__":  # `from pl import *`, `dir(pl)`
        return _names()
    if name.startswith("__"):  # Python's own protocol probes (`__path__`, ...): the plain answer
        raise AttributeError(f"module 'pl' has no attribute {name!r}")
    from pl.face import TOOLS

    if name in TOOLS:
        module, attr = TOOLS[name]
        try:
            loaded = importlib.import_module(module)
        except ModuleNotFoundError as e:
            if name != "interpret" or e.name != "numpy":
                raise
            raise ImportError("pl.interpret needs numpy: pip install 'pl-tile[interpret]'") from None
        return loaded if attr is None else getattr(loaded, attr)
    language = importlib.import_module("pl.language")
    if name in language.NAMES:
        return getattr(language, name)
    from pl.errors import UnknownNameError, suggest

    raise UnknownNameError(f"Unknown name 'pl.{name}'", hint=suggest(name, _names(), "pl.")
                           or "see `dir(pl)` for the DSL's names").uncaught()


def __dir__() -> list[str]:
    from pl.face import TOOLS

    return sorted({*globals(), *_names(), *TOOLS})
