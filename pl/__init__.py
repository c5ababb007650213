"""`pl`: a Python frontend for tile kernels.

This module is only a face: it re-exports the DSL surface (types, decorators, loops, ops) and the
tools (`parse`, `structural_equal`, `compile`, `interpret`, `passes`). Nothing is defined here.
"""

from lowering.frontend.parse import parse as parse  # pl.parse: program text -> Program | Function
from pl import dsl as _dsl
from pl import dsl_ops as _dsl_ops
from pl import passes as passes
from pl.compiler import Compiled as Compiled
from pl.compiler import compile_program as compile  # noqa: A001  (the reference's name: ir.compile)
from pl.dsl import *  # noqa: F403  (decorators, pl.Tile / pl.Tensor / ..., loops, dtypes)
from pl.dsl_ops import *  # noqa: F403  (pl.add, pl.load, ..., namespaces pl.tile / pl.tensor / pl.system)
from pl.errors import PlError as PlError
from pl.ir.enums import (
    CompactMode,
    DType,
    ForKind,
    FunctionType,
    Level,
    MemorySpace,
    PadValue,
    ParamDirection,
    Role,
    TensorLayout,
    TileLayout,
)
from pl.structural import assert_structural_equal as assert_structural_equal
from pl.structural import structural_equal as structural_equal
from pl.structural import structural_hash as structural_hash

Mem = MemorySpace


def __getattr__(name: str) -> object:
    import importlib

    # `pl.show_inferred(path_or_text, ...)`: the module is callable. Imported lazily so that
    # `python -m pl.show_inferred` does not find it already imported (runpy warns about that).
    if name == "show_inferred":
        return importlib.import_module("pl.show_inferred")
    # `pl.interpret(program, *arrays)` needs numpy, an optional extra: imported on first use.
    if name == "interpret":
        try:
            return importlib.import_module("pl.interpreter").interpret
        except ModuleNotFoundError as e:
            if e.name != "numpy":
                raise
            raise ImportError("pl.interpret needs numpy: pip install 'pl-tile[interpret]'") from None
    if name.startswith("__"):  # Python's own protocol probes (`__path__`, ...): the plain answer
        raise AttributeError(f"module 'pl' has no attribute {name!r}")
    from pl.errors import UnknownNameError, suggest

    raise UnknownNameError(f"Unknown name 'pl.{name}'",
                           hint=suggest(name, __all__, "pl.") or "see `dir(pl)` for the DSL's names")


__all__ = [*_dsl.__all__, *_dsl_ops.__all__, "Compiled", "CompactMode", "DType", "ForKind",
           "FunctionType", "Level", "Mem", "MemorySpace", "PadValue", "ParamDirection", "PlError",
           "Role", "TensorLayout", "TileLayout", "assert_structural_equal", "compile",
           "parse", "passes", "structural_equal", "structural_hash"]
