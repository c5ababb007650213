"""Enumerations of the IR: dtypes, memory spaces, layouts, function kinds, loop kinds.

Member names are exactly the DSL spellings (`pl.FP32`, `pl.MemorySpace.Vec`, `pl.TileLayout.row_major`),
so the printer and the frontend translate by name and never need a second table.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum, IntEnum
from types import MappingProxyType
from typing import Final


class IrEnum(Enum):
    """Base of the IR enums. Members are singletons that compare by identity, so they hash by
    identity too: Enum's own `__hash__` hashes the member's name in Python code, a measurable cost
    where the passes key dicts by (value, memory space)."""

    __hash__ = object.__hash__



class DType(IrEnum):
    """Element types. The value is (lower-case name used in messages, storage bits)."""

    BOOL = ("bool", 8)
    INT4 = ("int4", 4)
    INT8 = ("int8", 8)
    INT16 = ("int16", 16)
    INT32 = ("int32", 32)
    INT64 = ("int64", 64)
    UINT4 = ("uint4", 4)
    UINT8 = ("uint8", 8)
    UINT16 = ("uint16", 16)
    UINT32 = ("uint32", 32)
    UINT64 = ("uint64", 64)
    FP4 = ("fp4", 4)
    FP8E4M3FN = ("fp8e4m3fn", 8)
    FP8E5M2 = ("fp8e5m2", 8)
    FP8E8M0 = ("fp8e8m0", 8)
    FP16 = ("fp16", 16)
    BF16 = ("bf16", 16)
    FP32 = ("fp32", 32)
    HF4 = ("hf4", 4)
    HF8 = ("hf8", 8)
    INDEX = ("index", 64)
    TASK_ID = ("task_id", 64)

    @property
    def short(self) -> str:
        """Lower-case name, as the reference spells dtypes in messages (`fp32`)."""
        return self.value[0]

    @property
    def bits(self) -> int:
        """Storage bits of one element in a tile (BOOL is stored as a byte)."""
        return self.value[1]

    def is_float(self) -> bool:
        return self in _FLOATS

    def is_int(self) -> bool:
        return self in _INTS

    def is_signed_int(self) -> bool:
        return self in _SIGNED

    def byte_size(self) -> int:
        """`pl.X.get_byte()`: bytes of one element, at least 1."""
        return max(1, self.bits // 8)

    def get_byte(self) -> int:
        """The reference's spelling of `byte_size` (`pl.FP32.get_byte()`, in kernels too: the
        frontend reads it as the constant)."""
        return self.byte_size()


_FLOATS = frozenset({DType.FP4, DType.FP8E4M3FN, DType.FP8E5M2, DType.FP8E8M0, DType.FP16,
                     DType.BF16, DType.FP32, DType.HF4, DType.HF8})
_SIGNED = frozenset({DType.INT4, DType.INT8, DType.INT16, DType.INT32, DType.INT64, DType.INDEX})
_INTS = _SIGNED | frozenset({DType.UINT4, DType.UINT8, DType.UINT16, DType.UINT32, DType.UINT64})


class MemorySpace(IrEnum):
    """On-chip buffers (and DDR). Values are the reference's integer codes."""

    DDR = 0
    Vec = 1
    Mat = 2
    Left = 3
    Right = 4
    Acc = 5
    Bias = 6
    ScalarLocal = 7
    LeftScale = 8
    RightScale = 9


class TileLayout(IrEnum):
    none_box = 0
    row_major = 1
    col_major = 2


class PadValue(IrEnum):
    null = 0
    zero = 1
    max = 2
    min = 3


class CompactMode(IrEnum):
    null = 0
    normal = 1


class TensorLayout(IrEnum):
    ND = 0
    DN = 1
    NZ = 2
    MX_A_ZZ = 3
    MX_B_NN = 4


class AtomicType(IntEnum):
    """`atomic=` of `tile.store` / `assemble`: how a store combines with the destination.

    This and the int-coded enums below are `IntEnum`s because the IR keeps such a kwarg as the
    plain int (as the reference does): the frontend stores `int(member)`, and the printer spells
    the int back as the member by the kwarg's name (`pl/printer/exprs.py`)."""

    None_ = 0  # plain store; `None` is a keyword, hence the reference's trailing underscore
    Add = 1


class NotifyOp(IntEnum):
    """`op=` of `pld.system.notify`: add the value into the peer's slot, or set it (the reference's
    `pld.NotifyOp`; the IR keeps the int)."""

    AtomicAdd = 0
    Set = 1


class WaitCmp(IntEnum):
    """`cmp=` of `pld.system.wait` / `defer_wait`: wait until the local slot equals, or reaches,
    the expected value (`pld.WaitCmp`)."""

    Eq = 0
    Ge = 1


class ReduceOp(IntEnum):
    """`op=` of `pld.tensor.allreduce` / `reduce_scatter`: how the ranks' values combine
    (`pld.ReduceOp`)."""

    Sum = 0
    Max = 1
    Min = 2
    Prod = 3


class PipeType(IntEnum):
    """Hardware pipes: `set_pipe=` / `wait_pipe=` of `system.sync_src/dst`, `pipe=` of
    `system.sync_set/wait`."""

    MTE1 = 0
    MTE2 = 1
    MTE3 = 2
    M = 3
    V = 4
    S = 5
    FIX = 6
    ALL = 7


class MaskPattern(IntEnum):
    """`mask_pattern=` of `tile.gather_mask` / `tile.scatter_mask` (`pl.tile.MaskPattern`). Bits
    read right to left: P0101 selects positions 0, 2, 4, ...; the reference prints the int."""

    P0101 = 1
    P1010 = 2
    P0001 = 3
    P0010 = 4
    P0100 = 5
    P1000 = 6
    P1111 = 7


class SplitMode(IntEnum):
    """How a mixed kernel's data is split between its two vector cores (`"split"` attr)."""

    NONE = 0
    UP_DOWN = 1
    LEFT_RIGHT = 2


class ArgDirection(IntEnum):
    """How a call passes one argument to the runtime (`attrs={"arg_directions": [pl.adir.input,
    ...]}` on a program call); the IR keeps the int, as the reference's does."""

    Input = 0
    Output = 1
    InOut = 2
    OutputExisting = 3
    NoDep = 4
    Scalar = 5


# How `pl.adir` spells each direction (pl/language/adir.py defines those names; the printer writes them).
ARG_DIRECTION_NAMES: Final[Mapping[int, str]] = MappingProxyType({
    ArgDirection.Input: "input", ArgDirection.Output: "output",
    ArgDirection.OutputExisting: "output_existing", ArgDirection.InOut: "inout",
    ArgDirection.NoDep: "no_dep", ArgDirection.Scalar: "scalar"})


class FunctionType(IrEnum):
    Opaque = 0
    Orchestration = 1
    InCore = 2
    AIC = 3
    AIV = 4
    Group = 5
    Spmd = 6
    Inline = 7
    Graph = 8

    def is_incore_kind(self) -> bool:
        """InCore, AIC and AIV: the kinds memory-space inference transforms (our decision 1)."""
        return self in (FunctionType.InCore, FunctionType.AIC, FunctionType.AIV)


class Level(IrEnum):
    AIV = 0
    AIC = 1
    CORE_GROUP = 2
    CHIP_DIE = 3
    CHIP = 4
    HOST = 5
    CLUSTER_0 = 6
    CLUSTER_1 = 7
    CLUSTER_2 = 8
    GLOBAL = 9


# Input-only aliases of Level members (the reference accepts these spellings).
LEVEL_ALIASES: Final[Mapping[str, Level]] = MappingProxyType({
    "L2CACHE": Level.CHIP_DIE,
    "PROCESSOR": Level.CHIP,
    "UMA": Level.HOST,
    "NODE": Level.CLUSTER_0,
    "POD": Level.CLUSTER_1,
    "CLOS1": Level.CLUSTER_2,
    "CLOS2": Level.GLOBAL,
})


class Role(IrEnum):
    Orchestrator = 0
    SubWorker = 1


class ParamDirection(IrEnum):
    In = 0
    Out = 1
    InOut = 2


class ForKind(IrEnum):
    Sequential = 0
    Parallel = 1
    Unroll = 2
    Pipeline = 3


class ScopeKind(IrEnum):
    """`with` scopes; all are transparent to SSA."""

    Runtime = 0      # pl.scope() / pl.scope(mode=...) / pl.manual_scope()
    InCore = 1       # pl.at(level=pl.Level.CORE_GROUP, ...)
    Hierarchy = 2    # pl.at(level=<other>)
    Cluster = 3      # pl.cluster()
    Spmd = 4         # pl.spmd(N); `for i in pl.spmd(N)` is Spmd around InCore
    SplitAiv = 5     # `for aiv_id in pl.split_aiv(2, mode=...)`: the two AIV lanes of a core


def default_level_role(ft: FunctionType) -> tuple[Level | None, Role | None]:
    """The level and role the reference derives from a function type."""
    table: dict[FunctionType, tuple[Level | None, Role | None]] = {
        FunctionType.Orchestration: (Level.CHIP, Role.Orchestrator),
        FunctionType.Graph: (Level.CHIP, Role.Orchestrator),
        FunctionType.InCore: (Level.CHIP_DIE, Role.SubWorker),
        FunctionType.AIC: (Level.AIC, Role.SubWorker),
        FunctionType.AIV: (Level.AIV, Role.SubWorker),
        FunctionType.Group: (Level.CORE_GROUP, Role.SubWorker),
    }
    return table.get(ft, (None, None))
