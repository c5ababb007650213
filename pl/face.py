"""The tools of the `pl` face: each name `pl.NAME` that is not the language surface, and the
module (and attribute: None for the module itself) it is.

One table, read by everything that lists them: pl/__init__.py loads each on first use and lists
them in `__all__` (all but `LOADED_ON_USE`), static loading (pl/lowering/source/static_module.py)
binds those that live above lowering unresolved, and tests/test_layering.py checks that
pl/__init__.py's imports for the type checker name the same tools. Imports nothing.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

TOOLS: Final = MappingProxyType({
    "Compiled": ("pl.compiler", "Compiled"),
    "PlError": ("pl.errors", "PlError"),
    "assert_structural_equal": ("pl.structural", "assert_structural_equal"),
    "compile": ("pl.compiler", "compile_program"),  # the reference's name: ir.compile
    "function": ("pl.lowering.frontend.lower", "function"),
    "inline": ("pl.lowering.frontend.lower", "inline"),
    "interpret": ("pl.interpreter", "interpret"),  # needs numpy, an optional extra
    "jit": ("pl.jit", None),  # the module is callable: `@pl.jit`, `@pl.jit.incore`
    "parse": ("pl.lowering.frontend.parse", "parse"),  # program text -> Program | Function
    "passes": ("pl.passes", None),
    "program": ("pl.lowering.frontend.lower", "program"),
    "python_print": ("pl.printer.program", "print_node"),
    # `pl.show_inferred(path_or_text, ...)`: the module is callable.
    "show_inferred": ("pl.show_inferred", None),
    "structural_equal": ("pl.structural", "structural_equal"),
    "structural_hash": ("pl.structural", "structural_hash"),
})

# Tools `from pl import *` leaves out (not in `__all__`), loaded only when named: `interpret`
# needs numpy, and `python -m pl.show_inferred` must not find its module already imported
# (runpy warns about that).
LOADED_ON_USE: Final = frozenset({"interpret", "show_inferred"})
