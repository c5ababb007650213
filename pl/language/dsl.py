"""The DSL surface: type annotations, loops, scopes and constants of `pl`.

Guarantees: every object here can be evaluated at runtime where Python evaluates it in a kernel
file (annotations in class bodies, `pl.Tile[[16, 128], pl.BF16, pl.MemorySpace.Vec]`) without
error; the frontend recognises them by identity, never by spelling. Calling a DSL statement
object (`pl.range`, `pl.yield_`, ...) outside a kernel raises a `PlError` that says so. Importing
this module changes nothing outside pl. The decorators `@pl.function` / `@pl.program` lower
what they decorate, so they live with the frontend (`lowering.frontend.lower`).
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from pl.errors import PlError
from pl.ir.enums import (
    LEVEL_ALIASES,
    ArgDirection,
    AtomicType,
    CompactMode,
    DType,
    ForKind,
    FunctionType,
    Level,
    MemorySpace,
    PadValue,
    ParamDirection,
    PipeType,
    Role,
    SplitMode,
    TensorLayout,
    TileLayout,
)
from pl.ir.expr import Var
from pl.ir.types import HANDLE_KINDS, ScalarType
from pl.language import adir

Mem = MemorySpace

# Input-only spellings (`pl.Level.L2CACHE`): new class attributes, not members, so printing and
# iteration still see the canonical names only.
for _alias, _member in LEVEL_ALIASES.items():
    if not hasattr(Level, _alias):
        setattr(Level, _alias, _member)

BOOL, INT4, INT8, INT16, INT32, INT64 = (DType.BOOL, DType.INT4, DType.INT8, DType.INT16,
                                         DType.INT32, DType.INT64)
UINT4, UINT8, UINT16, UINT32, UINT64 = (DType.UINT4, DType.UINT8, DType.UINT16, DType.UINT32,
                                        DType.UINT64)
FP4, FP8E4M3FN, FP8E5M2, FP8E8M0 = DType.FP4, DType.FP8E4M3FN, DType.FP8E5M2, DType.FP8E8M0
FP16, BF16, FP32, HF4, HF8 = DType.FP16, DType.BF16, DType.FP32, DType.HF4, DType.HF8
INDEX, TASK_ID = DType.INDEX, DType.TASK_ID

# `base=pl.AUTO` (also `pl.system.AUTO`): the compiler picks a pipe buffer's address.
AUTO = -1

# The tensor layouts by their bare names, as the reference exports them (`pl.NZ`).
ND, DN, NZ, MX_A_ZZ, MX_B_NN = (TensorLayout.ND, TensorLayout.DN, TensorLayout.NZ,
                                TensorLayout.MX_A_ZZ, TensorLayout.MX_B_NN)


class ScopeMode(Enum):
    """`pl.scope(mode=...)`: whether the runtime scope manages dependencies itself."""

    AUTO = 0
    MANUAL = 1


class Annotation:
    """What a subscripted DSL type evaluates to at runtime: the head class and its parameters."""

    __slots__ = ("head", "params")

    def __init__(self, head: type, params: tuple[Any, ...]) -> None:
        self.head = head
        self.params = params

    def __repr__(self) -> str:
        return f"{self.head.__name__}[{', '.join(map(repr, self.params))}]"


class _Subscriptable:
    """Base of the annotation heads: `X[...]` records its parameters and never fails."""

    def __class_getitem__(cls, params: Any) -> Annotation:
        return Annotation(cls, params if isinstance(params, tuple) else (params,))


class Tensor(_Subscriptable):
    """`pl.Tensor[[64, 128], pl.FP16]`: a tensor in DDR. The call form `pl.Tensor((64,), dt)` too."""

    def __init__(self, *params: Any) -> None:
        self.params = params


class Tile(_Subscriptable):
    """`pl.Tile[[16, 128], pl.BF16, pl.MemorySpace.Vec]`: an on-chip tile."""

    def __init__(self, *params: Any) -> None:
        self.params = params


class Scalar(_Subscriptable):
    """`pl.Scalar[pl.INDEX]`."""


class Out(_Subscriptable):
    """`pl.Out[T]`: a parameter the function writes."""


class InOut(_Subscriptable):
    """`pl.InOut[T]`: a parameter the function reads and writes."""


class Tuple(_Subscriptable):
    """`pl.Tuple[A, B]`."""


class Array(_Subscriptable):
    """`pl.Array[16, pl.INT32]`."""


class Handle:
    """`pl.PrefetchAsyncContext`, `pl.AsyncEvent`, `pl.AsyncSession`: the annotation of an opaque
    runtime handle (pl.ir.types.HandleType), written bare."""

    __slots__ = ("kind",)

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __repr__(self) -> str:
        return f"pl.{self.kind}"


PrefetchAsyncContext, AsyncEvent, AsyncSession = (Handle(k) for k in HANDLE_KINDS[:3])


class _Record:
    """Keyword records evaluated inside annotations (`pl.TileView(...)`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args = args
        self.kwargs = kwargs

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.args!r}, {self.kwargs!r})"


class TileView(_Record):
    """`pl.TileView(valid_shape=..., blayout=..., ...)` inside a Tile annotation."""


class TensorView(_Record):
    """`pl.TensorView(stride=..., layout=..., ...)` inside a Tensor annotation."""


class MemRef(_Record):
    """`pl.MemRef(...)` inside a Tile / Tensor annotation."""


class Ptr:
    """`pl.Ptr`: the annotation of an allocation's base pointer, `m: pl.Ptr = pl.tile.alloc(...)`
    in IR printed after memory allocation."""


class DynVar:
    """`pl.dynamic("M")`: a dimension known at run time; one IR variable per object (`var`),
    whichever function's types name it: the types of two functions lowered apart (a
    module-level `@pl.function` a program calls, and the program) agree on it."""

    __slots__ = ("name", "var")

    def __init__(self, name: str) -> None:
        self.name = name
        self.var = Var(name, ScalarType(DType.INDEX))

    def __repr__(self) -> str:
        return f"pl.dynamic({self.name!r})"


def dynamic(name: str) -> DynVar:
    return DynVar(name)


class KernelOnly:
    """A DSL construct that only has meaning inside a kernel body; calling it elsewhere fails."""

    __slots__ = ("spelling",)

    def __init__(self, spelling: str) -> None:
        self.spelling = spelling

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise PlError(f"{self.spelling}(...) can only be used inside a @pl.function body",
                      hint="Kernel code is compiled, not executed: call the kernel through pl.compile")

    def __repr__(self) -> str:
        return self.spelling


range = KernelOnly("pl.range")  # noqa: A001  (the DSL spelling is pl.range)
parallel = KernelOnly("pl.parallel")
unroll = KernelOnly("pl.unroll")
pipeline = KernelOnly("pl.pipeline")
while_ = KernelOnly("pl.while_")
cond = KernelOnly("pl.cond")
yield_ = KernelOnly("pl.yield_")
const = KernelOnly("pl.const")
scope = KernelOnly("pl.scope")
manual_scope = KernelOnly("pl.manual_scope")
at = KernelOnly("pl.at")
cluster = KernelOnly("pl.cluster")
spmd = KernelOnly("pl.spmd")
split_aiv = KernelOnly("pl.split_aiv")
# The entries of `optimizations=[...]` on pl.at / pl.spmd.
split = KernelOnly("pl.split")
cross_core_slot = KernelOnly("pl.cross_core_slot")
func_attr = KernelOnly("pl.func_attr")
static_print = KernelOnly("pl.static_print")
static_assert = KernelOnly("pl.static_assert")
submit = KernelOnly("pl.submit")
spmd_submit = KernelOnly("pl.spmd_submit")
no_dep = KernelOnly("pl.no_dep")
dump_tag = KernelOnly("pl.dump_tag")

__all__ = [
    "AUTO", "Annotation", "ArgDirection", "Array", "AsyncEvent", "AsyncSession", "Handle",
    "PrefetchAsyncContext", "AtomicType", "BF16", "BOOL", "CompactMode", "DN", "DType", "DynVar",
    "FP16", "FP32", "FP4", "FP8E4M3FN", "FP8E5M2", "FP8E8M0", "ForKind", "FunctionType", "HF4",
    "HF8", "INDEX", "INT16", "INT32", "INT4", "INT64", "INT8", "InOut", "Level", "MX_A_ZZ",
    "MX_B_NN", "Mem", "MemRef", "MemorySpace", "ND", "NZ", "Out", "PadValue", "ParamDirection",
    "PipeType", "Ptr", "Role", "SplitMode", "Scalar", "ScopeMode", "TASK_ID", "Tensor", "TensorLayout",
    "TensorView", "Tile", "TileLayout", "TileView", "Tuple", "UINT16", "UINT32", "UINT4", "UINT64",
    "UINT8", "adir", "at", "cluster", "cond", "const", "dynamic", "func_attr", "manual_scope", "parallel",
    "pipeline", "range", "scope", "spmd", "split", "split_aiv", "cross_core_slot", "static_assert",
    "static_print", "submit", "unroll", "spmd_submit", "no_dep", "dump_tag",
    "while_", "yield_",
]
