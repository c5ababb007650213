"""Stubs of the IR enums (kept equal to pl/ir/enums.py by tests/test_typing.py)."""

from enum import Enum, IntEnum
from typing import Any

class DType(Enum):
    BOOL = ('bool', 8)
    INT4 = ('int4', 4)
    INT8 = ('int8', 8)
    INT16 = ('int16', 16)
    INT32 = ('int32', 32)
    INT64 = ('int64', 64)
    UINT4 = ('uint4', 4)
    UINT8 = ('uint8', 8)
    UINT16 = ('uint16', 16)
    UINT32 = ('uint32', 32)
    UINT64 = ('uint64', 64)
    FP4 = ('fp4', 4)
    FP8E4M3FN = ('fp8e4m3fn', 8)
    FP8E5M2 = ('fp8e5m2', 8)
    FP8E8M0 = ('fp8e8m0', 8)
    FP16 = ('fp16', 16)
    BF16 = ('bf16', 16)
    FP32 = ('fp32', 32)
    HF4 = ('hf4', 4)
    HF8 = ('hf8', 8)
    INDEX = ('index', 64)
    TASK_ID = ('task_id', 64)
    @property
    def short(self) -> str: ...
    @property
    def bits(self) -> int: ...
    def get_byte(self) -> int: ...
    def is_float(self) -> bool: ...
    def is_int(self) -> bool: ...
    def is_signed_int(self) -> bool: ...
    def byte_size(self) -> int: ...

class MemorySpace(Enum):
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

class TileLayout(Enum):
    none_box = 0
    row_major = 1
    col_major = 2

class PadValue(Enum):
    null = 0
    zero = 1
    max = 2
    min = 3

class CompactMode(Enum):
    null = 0
    normal = 1

class TensorLayout(Enum):
    ND = 0
    DN = 1
    NZ = 2
    MX_A_ZZ = 3
    MX_B_NN = 4

class AtomicType(IntEnum):
    None_ = 0
    Add = 1

class NotifyOp(IntEnum):
    AtomicAdd = 0
    Set = 1

class WaitCmp(IntEnum):
    Eq = 0
    Ge = 1

class ReduceOp(IntEnum):
    Sum = 0
    Max = 1
    Min = 2
    Prod = 3

class PipeType(IntEnum):
    MTE1 = 0
    MTE2 = 1
    MTE3 = 2
    M = 3
    V = 4
    S = 5
    FIX = 6
    ALL = 7

class MaskPattern(IntEnum):
    P0101 = 1
    P1010 = 2
    P0001 = 3
    P0010 = 4
    P0100 = 5
    P1000 = 6
    P1111 = 7

class SplitMode(IntEnum):
    NONE = 0
    UP_DOWN = 1
    LEFT_RIGHT = 2

class ArgDirection(IntEnum):
    Input = 0
    Output = 1
    InOut = 2
    OutputExisting = 3
    NoDep = 4
    Scalar = 5

class FunctionType(Enum):
    Opaque = 0
    Orchestration = 1
    InCore = 2
    AIC = 3
    AIV = 4
    Group = 5
    Spmd = 6
    Inline = 7
    Graph = 8
    def is_incore_kind(self) -> bool: ...

class Level(Enum):
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

LEVEL_ALIASES: Any

class Role(Enum):
    Orchestrator = 0
    SubWorker = 1

class ParamDirection(Enum):
    In = 0
    Out = 1
    InOut = 2

class ForKind(Enum):
    Sequential = 0
    Parallel = 1
    Unroll = 2
    Pipeline = 3

class ScopeKind(Enum):
    Runtime = 0
    InCore = 1
    Hierarchy = 2
    Cluster = 3
    Spmd = 4
    SplitAiv = 5

def default_level_role(ft: FunctionType) -> tuple[Level | None, Role | None]: ...
