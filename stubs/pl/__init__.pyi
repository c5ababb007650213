"""PEP 561 stubs for `pl` (the DSL surface, the tools and, through `pl._ops`, every op spelling).

Read by mypy together with `pl.mypy_plugin`, which turns `pl.Tile[[16, 128], pl.FP32, pl.Mem.Vec]`
into `Tile[FP32, Vec]` and types op results. The op functions live in the generated `_ops.pyi`,
`tile.pyi`, `tensor.pyi`, `system.pyi`, `array.pyi`, `prefetch.pyi` (stubs/generate.py); this file is
written by hand.
"""

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from enum import Enum
from os import PathLike
from typing import Any, Final, TypeAlias, TypeVar, overload

from pl._core import INDEX as _INDEX_MARK
from pl._core import TASK_ID as _TASK_ID_MARK
from pl._core import Array as Array
from pl._core import InOut as InOut
from pl._core import Out as Out
from pl._core import Scalar as Scalar
from pl._core import Tensor as Tensor
from pl._core import Tile as Tile
from pl._core import Tuple as Tuple
from pl._ops import *  # noqa: F403  (every `pl.X` op spelling)

from pl import _core as _core
from pl import adir as adir
from pl import array as array
from pl import optimizations as optimizations
from pl import passes as passes
from pl import prefetch as prefetch
from pl import system as system
from pl import tensor as tensor
from pl import tile as tile
from pl.errors import PlError as PlError
from pl.ir.enums import ArgDirection as ArgDirection
from pl.ir.enums import AtomicType as AtomicType
from pl.ir.enums import CompactMode as CompactMode
from pl.ir.enums import DType as DType
from pl.ir.enums import ForKind as ForKind
from pl.ir.enums import FunctionType as FunctionType
from pl.ir.enums import Level as Level
from pl.ir.enums import MemorySpace as MemorySpace
from pl.ir.enums import PadValue as PadValue
from pl.ir.enums import ParamDirection as ParamDirection
from pl.ir.enums import PipeType as PipeType
from pl.ir.enums import Role as Role
from pl.ir.enums import SplitMode as SplitMode
from pl.ir.enums import TensorLayout as TensorLayout
from pl.ir.enums import TileLayout as TileLayout
from pl.ir.function import Function, Program
from pl.structural import assert_structural_equal as assert_structural_equal
from pl.structural import structural_equal as structural_equal
from pl.structural import structural_hash as structural_hash

Mem = MemorySpace

# Opaque runtime handles (annotations written bare: `ctx: pl.PrefetchAsyncContext = ...`): each
# is a `Handle` object at runtime, a class here so that the bare name is a type.
class Handle:
    kind: str
    def __init__(self, kind: str) -> None: ...

class PrefetchAsyncContext: ...
class AsyncEvent: ...
class AsyncSession: ...

BOOL: Final[DType]
INT4: Final[DType]
INT8: Final[DType]
INT16: Final[DType]
INT32: Final[DType]
INT64: Final[DType]
UINT4: Final[DType]
UINT8: Final[DType]
UINT16: Final[DType]
UINT32: Final[DType]
UINT64: Final[DType]
FP4: Final[DType]
FP8E4M3FN: Final[DType]
FP8E5M2: Final[DType]
FP8E8M0: Final[DType]
FP16: Final[DType]
BF16: Final[DType]
FP32: Final[DType]
HF4: Final[DType]
HF8: Final[DType]
INDEX: Final[DType]
TASK_ID: Final[DType]

AUTO: Final = -1

ND: Final = TensorLayout.ND
DN: Final = TensorLayout.DN
NZ: Final = TensorLayout.NZ
MX_A_ZZ: Final = TensorLayout.MX_A_ZZ
MX_B_NN: Final = TensorLayout.MX_B_NN

_F = TypeVar("_F", bound=Callable[..., Any])
_Index = int | Scalar[Any]
_Carried = tuple[Any, ...] | list[Any]
_Attrs = dict[str, Any]

class ScopeMode(Enum):
    AUTO = 0
    MANUAL = 1

class Annotation:
    head: type
    params: tuple[Any, ...]
    def __init__(self, head: type, params: tuple[Any, ...]) -> None: ...

class TileView:
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...

class TensorView:
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...

class MemRef:
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def __getitem__(self, slot: Any) -> MemRef: ...

class Ptr: ...

class DynVar:
    name: str
    def __init__(self, name: str) -> None: ...

def dynamic(name: str) -> DynVar: ...

# ---- decorators: `@pl.program` on a class, `@pl.function` bare or with options ----
@overload
def program(cls: type[Any], /) -> Program: ...
@overload
def program(*, strict_ssa: bool = ...) -> Callable[[type[Any]], Program]: ...
@overload
def function(fn: _F, /) -> _F: ...
@overload
def function(
    *,
    type: FunctionType = ...,
    level: Level = ...,
    role: Role = ...,
    attrs: _Attrs = ...,
    auto_scope: bool = ...,
    strict_ssa: bool = ...,
    external_source: str | None = ...,
) -> Callable[[_F], _F]: ...
# `@pl.inline`: a helper whose body each call in a kernel splices in (the caller types its result)
def inline(fn: _F, /) -> _F: ...

# ---- `@pl.jit`: a kernel as a plain function, specialised on the arrays it is called with ----
class JitFunction:
    """What `@pl.jit` (and `.host`, `.incore`, `.opaque`, `.inline`, `.extern`) makes of a def:
    called in a kernel, or (an entry) from Python with arrays, which runs it on pl's interpreter."""
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...
    def lower(self, *samples: Any, **named: Any) -> Program: ...
    def compile(self, *samples: Any, backend: str | None = ..., **named: Any) -> Compiled: ...

class _JitKind:
    @overload
    def __call__(self, fn: Callable[..., Any], /) -> JitFunction: ...
    @overload
    def __call__(self, *, level: Level | None = ..., auto_scope: bool = ...,
                 **options: Any) -> Callable[[Callable[..., Any]], JitFunction]: ...

class _TensorSpec:
    shape: tuple[int, ...]
    dtype: DType

class _Jit:
    host: _JitKind
    incore: _JitKind
    opaque: _JitKind
    inline: _JitKind
    extern: _JitKind
    @staticmethod
    def spec(shape: list[int] | tuple[int, ...], dtype: DType) -> _TensorSpec: ...
    @overload
    def __call__(self, fn: Callable[..., Any], /) -> JitFunction: ...
    @overload
    def __call__(self, *, auto_scope: bool = ...) -> Callable[[Callable[..., Any]], JitFunction]: ...

jit: _Jit

# ---- loops: `for i in pl.range(n)` and `for i, (a,) in pl.range(n, init_values=(x,))` ----
@overload
def range(start_or_stop: _Index, stop: _Index = ..., step: _Index = ..., /, *,
          attrs: _Attrs = ...) -> Iterator[Scalar[_INDEX_MARK]]: ...
@overload
def range(start_or_stop: _Index, stop: _Index = ..., step: _Index = ..., /, *, init_values: _Carried,
          attrs: _Attrs = ...) -> Iterator[tuple[Scalar[_INDEX_MARK], tuple[Any, ...]]]: ...
@overload
def parallel(start_or_stop: _Index, stop: _Index = ..., step: _Index = ..., /, *,
             attrs: _Attrs = ...) -> Iterator[Scalar[_INDEX_MARK]]: ...
@overload
def parallel(start_or_stop: _Index, stop: _Index = ..., step: _Index = ..., /, *, init_values: _Carried,
             attrs: _Attrs = ...) -> Iterator[tuple[Scalar[_INDEX_MARK], tuple[Any, ...]]]: ...
def unroll(start_or_stop: int, stop: int = ..., step: int = ..., /, *,
           attrs: _Attrs = ...) -> Iterator[Scalar[_INDEX_MARK]]: ...
@overload
def pipeline(start_or_stop: _Index, stop: _Index = ..., step: _Index = ..., /, *, stage: int,
             attrs: _Attrs = ...) -> Iterator[Scalar[_INDEX_MARK]]: ...
@overload
def pipeline(start_or_stop: _Index, stop: _Index = ..., step: _Index = ..., /, *, stage: int,
             init_values: _Carried, attrs: _Attrs = ...) -> Iterator[tuple[Scalar[_INDEX_MARK], tuple[Any, ...]]]: ...
def while_(*, init_values: _Carried) -> Iterator[tuple[Any, ...]]: ...
def cond(condition: Scalar[Any] | bool, /) -> None: ...
def yield_(*values: Any) -> Any: ...

# ---- scopes and compile-time helpers ----
def const(value: int | float | bool, dtype: DType = ..., /) -> Scalar[Any]: ...
def scope(*args: Any, **kwargs: Any) -> AbstractContextManager[None]: ...
def manual_scope(*args: Any, **kwargs: Any) -> AbstractContextManager[None]: ...
# `with pl.at(...) as tid:` / `with pl.spmd(...) as tid:` bind the task id of the scope's task;
# `for i in pl.spmd(n)` binds the block index.
def at(*args: Any, **kwargs: Any) -> AbstractContextManager[Scalar[_TASK_ID_MARK]]: ...
def cluster(*args: Any, **kwargs: Any) -> AbstractContextManager[None]: ...
def spmd(*args: Any, **kwargs: Any) -> Any: ...
def split_aiv(n: int, /, *, mode: SplitMode) -> Iterator[Scalar[_INDEX_MARK]]: ...
def split(mode: SplitMode, /, *, slot_num: int = ...) -> Any: ...
def cross_core_slot(*, slot_num: int) -> Any: ...
def submit(*args: Any, **kwargs: Any) -> Any: ...
def spmd_submit(*args: Any, **kwargs: Any) -> Any: ...
def no_dep(tensor: Tensor[Any], /) -> Tensor[Any]: ...
def dump_tag(tensor: Tensor[Any], /) -> None: ...
def func_attr(*args: Any, **kwargs: Any) -> None: ...
def static_print(*args: Any) -> None: ...
def static_assert(condition: Any, message: str = ..., /) -> None: ...

# ---- tools ----
def parse(text: str, filename: str = ...) -> Program | Function: ...
def python_print(node: Program | Function, *, mem_alias: bool = ..., width: int = ...) -> str: ...

class Compiled:
    """What `pl.compile` returns (typed loosely: the pipeline's result record)."""
    def __getattr__(self, name: str) -> Any: ...

# A `@pl.program` class is a `Program` at runtime, but mypy keeps a decorated class's own type (it
# ignores what a class decorator returns): so a class is accepted here, and pl.mypy_plugin reports
# a class that is not decorated with @pl.program (which pl.compile rejects with a PlError).
_ProgramArg: TypeAlias = Program | type[Any]

def compile(program: _ProgramArg, backend: str | None = ..., *, residency: bool = ...,
            dump_passes: str | PathLike[str] | None = ..., verify: bool = ...) -> Compiled: ...
def interpret(program: _ProgramArg | Function, *args: Any, entry: str | Function | None = ...,
              function: str | Function | None = ..., ranks: int | None = ...) -> Any: ...
