"""IR types. Types compare by value; a TileType canonicalises its view on construction.

A `TileType` whose view equals the implicit view of its (shape, memory space) stores no view at
all, and a valid shape equal to the shape is cleared, so two spellings of one type are `==`.
MemRefs are carried but never compared (the reference does not compare them either): a `MemRef`
says where allocated memory lives (`pl.MemRef(base, byte_offset, size)` after memory allocation),
its `base` a Var of `PtrType` that a `tile.alloc` / `tensor.alloc` defines. Passes carry a type's
MemRef as it is; only SSA conversion renames the Vars in it to their versions (lowering/ssa).

Building a type is cheap (the IR builds one per op call): a TileType without a view does no work
beyond storing its fields, the implicit views are built once at import (they are frozen), and a
view is rebuilt with a changed valid shape by its own constructor, not `dataclasses.replace`.
This module never imports `pl.ir.expr` (expressions carry types): it reads static dims through
`Expr.static_int()`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from pl.ir.enums import CompactMode, DType, MemorySpace, PadValue, TensorLayout, TileLayout
from pl.ir.target import SPACES, Layouts

if TYPE_CHECKING:
    from pl.ir.expr import Expr


def _constant(dims: tuple[Expr, ...]) -> bool:
    for d in dims:
        if d.static_int() is None:
            return False
    return True


class Type:
    """Base of all IR types."""

    __slots__ = ()

    @property
    def all_constant(self) -> bool:
        """Every expression the type holds (dims, a view's valid shape, strides and start offset,
        a tuple's element types') is an integer constant, so none names a Var: what a pass that
        substitutes Vars asks before walking a type. Asked of the type, in O(rank), no walk."""
        return True


@dataclass(frozen=True, slots=True)
class ScalarType(Type):
    dtype: DType


@dataclass(frozen=True, slots=True)
class ArrayType(Type):
    """A small on-core array of scalars (`pl.Array[extent, dtype]`): 1-D, a fixed positive extent
    known when the kernel is written, integer or BOOL elements. It lives beside the tiles, in no
    memory space, and is updated functionally (`pl.array.update_element` returns a new value)."""

    extent: int
    dtype: DType


@dataclass(frozen=True, slots=True)
class UnknownType(Type):
    pass


@dataclass(frozen=True, slots=True)
class PtrType(Type):
    """A base pointer (`pl.Ptr`): the identity of one allocation, the result of `tile.alloc` /
    `tensor.alloc`. It holds no value the kernel reads; a MemRef names it as its base."""


@dataclass(frozen=True, slots=True)
class MemRef:
    """`pl.MemRef(base, byte_offset, size)`: the bytes [byte_offset, byte_offset + size) of the
    allocation `base` (a Var of PtrType). `slots` > 1 is a multi-slot allocation and `slot_index`
    the slot this one is (`pl.MemRef(b, 0, 64, slots=2)[1]`)."""

    base: Expr
    byte_offset: Expr
    size: int
    slots: int = 1
    slot_index: Expr | None = None


@dataclass(frozen=True, slots=True)
class HandleType(Type):
    """An opaque runtime handle one op makes and others take, holding nothing a kernel reads:
    `kind` is its DSL name, one of HANDLE_KINDS (the async-prefetch context, event and session,
    printed `pl.PrefetchAsyncContext`, `pl.AsyncEvent`, `pl.AsyncSession` as the reference does)."""

    kind: str


HANDLE_KINDS: Final = ("PrefetchAsyncContext", "AsyncEvent", "AsyncSession", "CommCtx")


@dataclass(frozen=True, slots=True)
class TupleType(Type):
    types: tuple[Type, ...]

    @property
    def all_constant(self) -> bool:
        return all(t.all_constant for t in self.types)


@dataclass(frozen=True, slots=True)
class TensorView:
    stride: tuple[Expr, ...] = ()
    layout: TensorLayout = TensorLayout.ND
    valid_shape: tuple[Expr, ...] = ()
    pad: PadValue = PadValue.null

    @property
    def all_constant(self) -> bool:
        return _constant(self.stride) and _constant(self.valid_shape)


def _cached_hash(t: TensorType | TileType, fields: tuple[object, ...]) -> int:
    """The hash of a tensor or tile type (`fields`: those its `==` compares), computed on first
    use and kept in the type: one type object is shared by many values, and passes and the
    printer look types up in their memos for every value, while hashing walks the shape and the
    view."""
    h = t._hash
    if h is None:
        h = hash(fields)
        object.__setattr__(t, "_hash", h)
    return h


@dataclass(frozen=True, slots=True)
class TensorType(Type):
    """A tensor in DDR (global memory). `distributed`: a window-bound tensor, one rank's slice of
    a communication window (`pld.DistributedTensor[...]`, the reference's DistributedTensorType);
    every tensor op reads it as the local rank's slice, the `pld.*` ops reach the peers'."""

    shape: tuple[Expr, ...]
    dtype: DType
    view: TensorView | None = None
    memref: MemRef | None = field(default=None, compare=False)
    distributed: bool = False
    _hash: int | None = field(default=None, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        return _cached_hash(self, (self.shape, self.dtype, self.view, self.distributed))

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def all_constant(self) -> bool:
        return _constant(self.shape) and (self.view is None or self.view.all_constant)


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

    @property
    def all_constant(self) -> bool:
        return _constant(self.valid_shape) and _constant(self.stride) \
            and (self.start_offset is None or self.start_offset.static_int() is not None)

    def with_valid_shape(self, valid_shape: tuple[Expr, ...]) -> TileView:
        """This view with another valid shape (every other field kept)."""
        return TileView(valid_shape, self.stride, self.start_offset, self.blayout, self.slayout,
                        self.fractal, self.pad, self.compact)


def _is_column(shape: tuple[Expr, ...]) -> bool:
    """The shape is 2-D, static, one column and more than one row (a col_major tile)."""
    if len(shape) != 2:
        return False
    rows, cols = shape[0].static_int(), shape[1].static_int()
    return cols == 1 and rows is not None and rows > 1


# (row, column) implicit views per space, made from the space table (pl/ir/target.py).
def _view(layouts: Layouts) -> TileView:
    return TileView(blayout=layouts.blayout, slayout=layouts.slayout, fractal=layouts.fractal)


_VIEWS: Final[Mapping[MemorySpace, tuple[TileView, TileView]]] = MappingProxyType({
    space: (_view(facts.row_view), _view(facts.column_view)) for space, facts in SPACES.items()})


def implicit_tile_view(shape: tuple[Expr, ...], space: MemorySpace | None) -> TileView:
    """The view a tile of this shape gets in this space when nothing else is said (ops.md 5); a
    tile not yet placed takes Vec's."""
    return _VIEWS[MemorySpace.Vec if space is None else space][_is_column(shape)]


def _canonical_view(shape: tuple[Expr, ...], space: MemorySpace | None, view: TileView) -> TileView | None:
    if view.valid_shape and tuple(view.valid_shape) == shape:
        view = view.with_valid_shape(())
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
    memref: MemRef | None = field(default=None, compare=False)
    _hash: int | None = field(default=None, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        return _cached_hash(self, (self.shape, self.dtype, self.memory_space, self.view))

    def __post_init__(self) -> None:
        if type(self.shape) is not tuple:
            object.__setattr__(self, "shape", tuple(self.shape))
        if self.view is not None:
            canon = _canonical_view(self.shape, self.memory_space, self.view)
            if canon is not self.view:
                object.__setattr__(self, "view", canon)

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def all_constant(self) -> bool:
        return _constant(self.shape) and (self.view is None or self.view.all_constant)

    def with_space(self, space: MemorySpace | None) -> TileType:
        return TileType(self.shape, self.dtype, space, self.view, self.memref)


# The closed set of type kinds. A `match` over `type_kind(t)` ends in `case _: assert_never(t)`;
# tests/test_traverse.py checks this union lists every subclass of Type.
TypeKind = (ScalarType | TensorType | TileType | TupleType | ArrayType | PtrType | HandleType
            | UnknownType)


def type_kind(t: Type) -> TypeKind:
    """`t` typed as the union of the type kinds (the IR's fields are typed `Type`)."""
    # A bare return, not `typing.cast`: this runs for every node a pass visits, and `cast` is a
    # Python-level call.
    return t  # type: ignore[return-value]


def effective_tile_view(t: TileType) -> TileView:
    """The stored view, or the implicit one; the valid shape is always filled in."""
    view = t.view if t.view is not None else implicit_tile_view(t.shape, t.memory_space)
    if not view.valid_shape:
        view = view.with_valid_shape(t.shape)
    return view


def declared_valid(declared: Type, value: Type) -> TileType | None:
    """`value`'s tile type with the valid region `declared` narrows it to, when `value` carries
    no view of its own (`p: pl.Tile[[16, 16], ..., pl.TileView(valid_shape=[12, 12])] =
    pl.tile.create(...)`); None when the declaration narrows nothing. The one rule the type
    checker, SSA and inference apply: the statements after such a binding were typed against the
    region, and it decides what a store of the tile writes."""
    if not (isinstance(declared, TileType) and isinstance(value, TileType)) or value.view is not None:
        return None
    dv = declared.view
    if dv is None or not dv.valid_shape or declared.shape != value.shape \
            or declared.dtype is not value.dtype or tuple(dv.valid_shape) == tuple(declared.shape):
        return None
    view = effective_tile_view(value).with_valid_shape(tuple(dv.valid_shape))
    return TileType(value.shape, value.dtype, value.memory_space, view, value.memref)


def static_shape(shape: tuple[Expr, ...]) -> tuple[int, ...] | None:
    """The dims as Python ints when every dim is a constant, else None."""
    out: list[int] = []
    for d in shape:
        value = d.static_int()
        if value is None:
            return None
        out.append(value)
    return tuple(out)
