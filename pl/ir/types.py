"""IR types. Types compare by value; a TileType canonicalises its view on construction.

A `TileType` whose view equals the implicit view of its (shape, memory space) stores no view at
all, and a valid shape equal to the shape is cleared, so two spellings of one type are `==`.
MemRefs are carried but never compared (the reference does not compare them either).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from pl.ir.enums import CompactMode, DType, MemorySpace, PadValue, TensorLayout, TileLayout

if TYPE_CHECKING:
    from pl.ir.expr import Expr


class Type:
    """Base of all IR types."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class ScalarType(Type):
    dtype: DType


@dataclass(frozen=True, slots=True)
class UnknownType(Type):
    pass


@dataclass(frozen=True, slots=True)
class TupleType(Type):
    types: tuple[Type, ...]


@dataclass(frozen=True, slots=True)
class TensorView:
    stride: tuple[Expr, ...] = ()
    layout: TensorLayout = TensorLayout.ND
    valid_shape: tuple[Expr, ...] = ()
    pad: PadValue = PadValue.null


@dataclass(frozen=True, slots=True)
class TensorType(Type):
    """A tensor in DDR (global memory)."""

    shape: tuple[Expr, ...]
    dtype: DType
    view: TensorView | None = None
    memref: Any = field(default=None, compare=False)

    @property
    def rank(self) -> int:
        return len(self.shape)


@dataclass(frozen=True, slots=True)
class TileView:
    """Layout of a tile in its buffer. An empty `valid_shape` means "the whole shape"."""

    valid_shape: tuple[Expr, ...] = ()
    stride: tuple[Expr, ...] = ()
    start_offset: Expr | None = None
    blayout: TileLayout = TileLayout.row_major
    slayout: TileLayout = TileLayout.none_box
    fractal: int = 512
    pad: PadValue = PadValue.null
    compact: CompactMode = CompactMode.null


def _shape_blayout(shape: tuple[Expr, ...]) -> TileLayout:
    """col_major iff the shape is 2-D, static, one column and more than one row."""
    dims = static_shape(shape)
    if dims is not None and len(dims) == 2 and dims[1] == 1 and dims[0] > 1:
        return TileLayout.col_major
    return TileLayout.row_major


def implicit_tile_view(shape: tuple[Expr, ...], space: MemorySpace | None) -> TileView:
    """The view a tile of this shape gets in this space when nothing else is said (ops.md 5)."""
    R, C, N = TileLayout.row_major, TileLayout.col_major, TileLayout.none_box
    if space in (MemorySpace.Mat, MemorySpace.Left):
        return TileView(blayout=C, slayout=R, fractal=512)
    if space is MemorySpace.Right:
        return TileView(blayout=_shape_blayout(shape), slayout=C, fractal=512)
    if space is MemorySpace.Acc:
        return TileView(blayout=C, slayout=R, fractal=1024)
    if space is MemorySpace.LeftScale:
        return TileView(blayout=R, slayout=R, fractal=32)
    if space is MemorySpace.RightScale:
        return TileView(blayout=C, slayout=C, fractal=32)
    return TileView(blayout=_shape_blayout(shape), slayout=N, fractal=512)


def _canonical_view(shape: tuple[Expr, ...], space: MemorySpace | None,
                    view: TileView | None) -> TileView | None:
    if view is None:
        return None
    if view.valid_shape and tuple(view.valid_shape) == tuple(shape):
        view = replace(view, valid_shape=())
    if view == implicit_tile_view(shape, space):
        return None
    return view


@dataclass(frozen=True, slots=True)
class TileType(Type):
    """An on-chip tile. `memory_space` None means "not placed yet" (inference decides)."""

    shape: tuple[Expr, ...]
    dtype: DType
    memory_space: MemorySpace | None = None
    view: TileView | None = None
    memref: Any = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", tuple(self.shape))
        canon = _canonical_view(self.shape, self.memory_space, self.view)
        if canon is not self.view:
            object.__setattr__(self, "view", canon)

    @property
    def rank(self) -> int:
        return len(self.shape)

    def with_space(self, space: MemorySpace | None) -> TileType:
        return TileType(self.shape, self.dtype, space, self.view, self.memref)


def effective_tile_view(t: TileType) -> TileView:
    """The stored view, or the implicit one; the valid shape is always filled in."""
    view = t.view if t.view is not None else implicit_tile_view(t.shape, t.memory_space)
    if not view.valid_shape:
        view = replace(view, valid_shape=tuple(t.shape))
    return view


def static_shape(shape: tuple[Expr, ...]) -> tuple[int, ...] | None:
    """The dims as Python ints when every dim is a constant, else None."""
    out: list[int] = []
    for d in shape:
        value = d.static_int()
        if value is None:
            return None
        out.append(value)
    return tuple(out)
