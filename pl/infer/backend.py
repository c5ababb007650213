"""Backend tables used by memory-space inference: input layouts and on-chip capacities.

Guarantees: pure data, keyed by the backend names the pass accepts (`None`, `"910B"`, `"950"`);
`input_layouts(backend, op)` is empty when no backend is configured, so a pass run without a backend
never adds layout kwargs (pass.md decision 3). Facts come from ops.md sections 6 and 13.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from pl.errors import PlError
from pl.ir.enums import MemorySpace, TileLayout

BACKENDS = ("910B", "950")

_R = TileLayout.row_major

# Row-major input indices per op (ops.md 6). Both backends register the same PTO table; 910B only
# lacks the mx ops, none of which appear here.
_INPUTS_BY_OPS: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("add sub mul part_add part_mul part_max part_min fmod and or shl shr maximum minimum "
     "adds subs muls divs fmods maximums lrelu", (0, 1)),
    ("rem xor addsc subsc prelu", (0, 1, 2)),
    ("abs exp sqrt not relu log recip cast cmps mrgsort_format1", (0,)),
    ("div rsqrt gatherb sort32 mscatter", (0, 1)),
    ("sel sels mrgsort_format2", (0, 1, 2, 3)),
)
_ROW_MAJOR_INPUTS: Final[Mapping[str, tuple[int, ...]]] = MappingProxyType(
    {"tile." + op: slots for ops, slots in _INPUTS_BY_OPS for op in ops.split()})

_MX_OPS = frozenset({"tile.matmul_mx", "tile.matmul_mx_acc", "tile.matmul_mx_bias",
                     "tile.tget_scale_addr"})

KIB = 1024

# Bytes per space (ops.md 13). A space absent from a table has capacity 0 (unchecked).
CAPACITIES: Final[Mapping[str, Mapping[MemorySpace, int]]] = MappingProxyType({
    "910B": MappingProxyType({
        MemorySpace.Vec: 184 * KIB, MemorySpace.Mat: 512 * KIB, MemorySpace.Left: 64 * KIB,
        MemorySpace.Right: 64 * KIB, MemorySpace.Acc: 128 * KIB, MemorySpace.Bias: 1 * KIB}),
    "950": MappingProxyType({
        MemorySpace.Vec: 240 * KIB, MemorySpace.Mat: 512 * KIB, MemorySpace.Left: 64 * KIB,
        MemorySpace.Right: 64 * KIB, MemorySpace.Acc: 256 * KIB, MemorySpace.Bias: 4 * KIB,
        MemorySpace.LeftScale: 4 * KIB, MemorySpace.RightScale: 4 * KIB}),
})


def check_backend(backend: str | None) -> None:
    """Raise a PlError for a backend name the pass does not know."""
    if backend is not None and backend not in BACKENDS:
        raise PlError(f"unknown backend '{backend}'",
                      hint="use None, \"910B\" (Ascend910B / a2a3) or \"950\" (Ascend950 / a5)")


def input_layouts(backend: str | None, op_name: str) -> dict[int, TileLayout]:
    """The layout each input slot of `op_name` must have on this backend ({} when none)."""
    if backend is None:
        return {}
    check_backend(backend)
    if backend == "910B" and op_name in _MX_OPS:
        return {}
    return {i: _R for i in _ROW_MAJOR_INPUTS.get(op_name, ())}


def capacity(backend: str | None, space: MemorySpace) -> int:
    """Bytes available in `space` (0 = unknown / unchecked)."""
    if backend is None:
        return 0
    check_backend(backend)
    return CAPACITIES[backend].get(space, 0)
