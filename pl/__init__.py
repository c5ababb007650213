"""`pl`: a Python frontend for tile kernels.

This module is only a face: it re-exports the DSL surface (types, decorators, loops, ops) and the
tools (`parse`, `structural_equal`, `compile`, `passes`). Nothing is defined here.
"""

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
from pl.errors import PlError
from pl.dsl import *  # noqa: F403  (decorators, pl.Tile / pl.Tensor / ..., loops, dtypes)
from pl.dsl_ops import *  # noqa: F403  (pl.add, pl.load, ..., namespaces pl.tile / pl.tensor / pl.system)

from lowering.text import parse  # (pl.parse: program text -> Program | Function)
from pl import passes
from pl.compiler import Compiled
from pl.interpret import interpret  # the function shadows the module name on purpose
from pl.compiler import compile_program as compile  # noqa: A001  (the reference's name: ir.compile)
from pl.structural import assert_structural_equal, structural_equal, structural_hash

Mem = MemorySpace
