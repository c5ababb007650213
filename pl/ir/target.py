"""The target's facts, each written once: one record per memory space and one per backend.

Guarantees:
- `SPACES` has one `Space` per `MemorySpace` member (tests/test_target.py): the implicit view of a
  tile there (`pl.ir.types.implicit_tile_view` reads it), its colour in the HTML report and
  whether the report's legend shows it. Its spelling everywhere (`pl.MemorySpace.Vec`, the stubs'
  marker class `Vec`, the mypy plugin) is the member's name.
- `BACKENDS` has one `Backend` per backend name `pl.compile` accepts (besides None): its on-chip
  capacities per space (ops.md 13; the L0 sizes the matmul tiler uses are the Left / Right / Acc
  capacities), the L0 cost model, the L0C row alignment of an INT32 accumulator and the op inputs
  that must be row_major (ops.md 6). Adding a backend is one entry here; every name list (the
  `--backend` choices of `pl show-inferred`, the error for an unknown name) is read from it.
- Pure read-only data; the one check of a backend name is `pl.ops.backend.backend` (it raises the
  user's error, which this layer cannot import).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, NamedTuple

from pl.ir.enums import MemorySpace, TileLayout

KIB = 1024

_R, _C, _N = TileLayout.row_major, TileLayout.col_major, TileLayout.none_box


class Layouts(NamedTuple):
    """The layout fields of an implicit tile view."""

    blayout: TileLayout
    slayout: TileLayout
    fractal: int


_ROW_FLAT = Layouts(_R, _N, 512)
_COL_FLAT = Layouts(_C, _N, 512)


@dataclass(frozen=True)
class Space:
    """What is known of one memory space."""

    row_view: Layouts     # implicit view of a tile here (ops.md 5)
    column_view: Layouts  # ... of a column tile: 2-D, static, one column, more than one row
    colour: str           # background of a tile of this space in the HTML report
    in_legend: bool = True

    @property
    def flat(self) -> bool:
        """Tiles here take the plain row / column view (no fractal box): Vec, DDR, Bias, ..."""
        return self.row_view == _ROW_FLAT and self.column_view == _COL_FLAT


def _fixed(view: Layouts, colour: str) -> Space:
    return Space(view, view, colour)


SPACES: Final[Mapping[MemorySpace, Space]] = MappingProxyType({
    MemorySpace.DDR: Space(_ROW_FLAT, _COL_FLAT, "#e4e4e4"),
    MemorySpace.Vec: Space(_ROW_FLAT, _COL_FLAT, "#cde7ff"),
    MemorySpace.Mat: _fixed(Layouts(_C, _R, 512), "#ffe2b8"),
    MemorySpace.Left: _fixed(Layouts(_C, _R, 512), "#d6f5d0"),
    MemorySpace.Right: Space(Layouts(_R, _C, 512), Layouts(_C, _C, 512), "#f0d7ff"),
    MemorySpace.Acc: _fixed(Layouts(_C, _R, 1024), "#ffd0d8"),
    MemorySpace.Bias: Space(_ROW_FLAT, _COL_FLAT, "#fff3a8"),
    MemorySpace.ScalarLocal: Space(_ROW_FLAT, _COL_FLAT, "#d0f0ef", in_legend=False),
    MemorySpace.LeftScale: _fixed(Layouts(_R, _R, 32), "#c9f2c0"),
    MemorySpace.RightScale: _fixed(Layouts(_C, _C, 32), "#e6c8ff"),
})


@dataclass(frozen=True)
class CostModel:
    """A backend's roofline constants for the L0 tile chooser (bandwidths in bytes per cycle)."""

    bw_a: float = 129.7
    bw_b: float = 85.4
    bw_drain: float = 118.0
    drain_fixed: float = 164.0
    drain_row: float = 4.45
    drain_penalty: float = 2.6
    drain_c0_bytes: int = 32
    mad_head: int = 21
    mad_k_fractal_bytes: int = 32
    mad_fp32_passes: int = 2


@dataclass(frozen=True)
class Backend:
    """One backend: its name, chip, capacities, L0 cost model and layout needs."""

    name: str
    chip: str  # how the user may know it, for the error naming the choices
    capacities: Mapping[MemorySpace, int]  # bytes; a space absent has capacity 0 (unchecked)
    cost: CostModel
    int32_acc_row_align: int  # L0C row alignment of an INT32 accumulator (FP32: 16)
    # Whether the backend registers PTO's per-op layout needs (the `layout` column of the op
    # tables, ops.md 6: both do; 910B lacks only the mx ops, none of which has a need).
    layout_needs: bool

    def capacity(self, space: MemorySpace) -> int:
        """Bytes available in `space` (0 = unknown / unchecked)."""
        return self.capacities.get(space, 0)

    @property
    def l0a(self) -> int:
        return self.capacity(MemorySpace.Left)

    @property
    def l0b(self) -> int:
        return self.capacity(MemorySpace.Right)

    @property
    def l0c(self) -> int:
        return self.capacity(MemorySpace.Acc)


def _capacities(**kib: int) -> Mapping[MemorySpace, int]:
    return MappingProxyType({MemorySpace[name]: n * KIB for name, n in kib.items()})


BACKENDS: Final[Mapping[str, Backend]] = MappingProxyType({b.name: b for b in (
    Backend("910B", "Ascend910B / a2a3",
            _capacities(Vec=184, Mat=512, Left=64, Right=64, Acc=128, Bias=1),
            CostModel(), 32, layout_needs=True),
    Backend("950", "Ascend950 / a5",
            _capacities(Vec=240, Mat=512, Left=64, Right=64, Acc=256, Bias=4, LeftScale=4,
                        RightScale=4),
            CostModel(bw_a=206.3, bw_b=223.8, bw_drain=30.0, drain_fixed=343.4, drain_row=4.59,
                      drain_penalty=0.26, mad_head=25, mad_fp32_passes=8),
            16, layout_needs=True),
)})

DEFAULT_BACKEND: Final = "910B"
