"""Shared helpers of the op type deducers: argument access, dtype promotion, broadcasting, views.

Every check failure is a `PlError` without a span (the caller locates it). Nothing here mutates
its inputs; results are fresh frozen IR types. Shape dims produced from literal tuples are
normalised to INDEX constants so that types built from `[16, 128]` compare equal wherever the
literal came from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pl.errors import PlError
from pl.ir.enums import DType, MemorySpace, PadValue, TileLayout
from pl.ir.expr import ConstBool, ConstFloat, ConstInt, Expr, MakeTuple, Var
from pl.ir.operators import promote as promote2
from pl.ir.types import (
    ScalarType,
    TensorType,
    TileType,
    TileView,
    Type,
    effective_tile_view,
)

Shape = tuple[Expr, ...]


class Deduction:
    """One deduction: the op name, its positional args and kwargs, with checked accessors."""

    __slots__ = ("name", "args", "kwargs")

    def __init__(self, name: str, args: Sequence[Expr], kwargs: Mapping[str, Any]) -> None:
        self.name = name
        self.args = tuple(args)
        self.kwargs = dict(kwargs)

    @property
    def short(self) -> str:
        return self.name.split(".", 1)[1]

    def fail(self, message: str, argument: int | None = None) -> PlError:
        """A misuse of this op; `argument`: the positional slot at fault (the frontend points at
        it)."""
        return PlError(message, argument=argument)

    def nargs(self, lo: int, hi: int | None = None) -> None:
        hi = lo if hi is None else hi
        n = len(self.args)
        if not lo <= n <= hi:
            want = f"exactly {lo}" if lo == hi else f"{lo} to {hi}"
            raise self.fail(f"The operator {self.name} requires {want} arguments, but got {n}")

    def has(self, i: int) -> bool:
        return i < len(self.args)

    def tile(self, i: int) -> TileType:
        t = self._arg(i).type
        if not isinstance(t, TileType):
            raise self.fail(f"The operator {self.name} requires {ordinal(i)} to be a TileType, "
                            f"but got {type_name(t)}", argument=i)
        return t

    def tensor(self, i: int) -> TensorType:
        t = self._arg(i).type
        if not isinstance(t, TensorType):
            raise self.fail(f"The operator {self.name} requires {ordinal(i)} to be a TensorType, "
                            f"but got {type_name(t)}", argument=i)
        return t

    def shaped(self, i: int) -> TileType | TensorType:
        t = self._arg(i).type
        if not isinstance(t, (TileType, TensorType)):
            raise self.fail(f"The operator {self.name} requires {ordinal(i)} to be a Tile or "
                            f"Tensor, but got {type_name(t)}", argument=i)
        return t

    def scalar(self, i: int) -> DType:
        t = self._arg(i).type
        if not isinstance(t, ScalarType):
            raise self.fail(f"The operator {self.name} requires {ordinal(i)} to be a ScalarType, "
                            f"but got {type_name(t)}", argument=i)
        return t.dtype

    def init_cond(self, i: int) -> None:
        """A matmul-accumulate's optional predicate at position `i` (first iteration: overwrite
        the accumulator) is a BOOL scalar, never an index read as a truth value."""
        if len(self.args) <= i:
            return
        t = self._arg(i).type
        if not (isinstance(t, ScalarType) and t.dtype is DType.BOOL):
            got = t.dtype.short if isinstance(t, ScalarType) else type_name(t)
            raise self.fail(f"The operator {self.name} requires init_cond to have dtype BOOL, but "
                            f"got {got}: write a comparison such as `k == 0` rather than the index "
                            "itself", argument=i)

    def tuple_arg(self, i: int) -> Shape:
        e = self._arg(i)
        if isinstance(e, MakeTuple):
            if not all(map(is_int_dim, e.elements)):
                raise self.fail(f"The operator {self.name} requires {ordinal(i)} to be a "
                                f"tuple of integers, but got {shape_str(e.elements)}")
            return tuple(norm_dim(x) for x in e.elements)
        raise self.fail(f"The operator {self.name} requires {ordinal(i)} to be a tuple, "
                        f"but got {type_name(e.type)}", argument=i)

    def dims(self, first: int, last: int) -> Shape:
        """Positional args `first..last` as dims (integers; `is_int_dim`), normalised."""
        given = self.args[first:last + 1]
        if not all(map(is_int_dim, given)):
            raise self.fail(f"The operator {self.name} requires integer dims, but got "
                            f"{shape_str(given)}")
        return tuple(norm_dim(e) for e in given)

    def opt_tuple(self, i: int) -> Shape | None:
        return self.tuple_arg(i) if self.has(i) else None

    def int_arg(self, i: int) -> int | None:
        e = self._arg(i)
        return e.value if isinstance(e, ConstInt) else None

    def kw_dtype(self, key: str, default: DType | None = None) -> DType:
        v = self.kwargs.get(key)
        if v is None:
            if default is None:
                raise self.fail(f"The operator {self.name} requires the '{key}' attribute")
            return default
        if not isinstance(v, DType):
            raise self.fail(f"The operator {self.name} requires '{key}' to be a DataType, "
                            f"but got {v!r}")
        return v

    def kw_int(self, key: str, default: int | None = None) -> int | None:
        v = self.kwargs.get(key)
        if v is None:
            return default
        if isinstance(v, ConstInt):
            return v.value
        if isinstance(v, bool):
            return int(v)
        if isinstance(v, int):
            return v
        return default

    def kw_bool(self, key: str) -> bool:
        v = self.kwargs.get(key)
        if isinstance(v, ConstBool):
            return v.value
        return bool(v) if isinstance(v, (bool, int)) else False

    def _arg(self, i: int) -> Expr:
        if i >= len(self.args):
            raise self.fail(f"The operator {self.name} requires argument {i}, but got only "
                            f"{len(self.args)} arguments")
        return self.args[i]


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def ordinal(i: int) -> str:
    """The reference's argument wording: "first argument", "second argument", ..."""
    return f"{_ORDINALS[i]} argument" if i < len(_ORDINALS) else f"argument {i}"


def type_name(t: Type) -> str:
    return type(t).__name__


def is_int_dim(e: Expr) -> bool:
    """Whether `e` can be an entry of a shape or offset: an integer. `128.0` or `True` would
    make a type that no annotation can spell (the printed file would not read back)."""
    t = e.type
    return isinstance(t, ScalarType) and t.dtype.is_int() and t.dtype is not DType.BOOL


def norm_dim(e: Expr) -> Expr:
    """Literal dims become INDEX constants; anything else is kept as given."""
    if isinstance(e, ConstInt) and e.dtype is not DType.INDEX:
        return ConstInt(e.value, DType.INDEX)
    return e


def idx(v: int) -> ConstInt:
    return ConstInt(v, DType.INDEX)


def static(e: Expr) -> int | None:
    return e.value if isinstance(e, ConstInt) else None


def dim_str(e: Expr) -> str:
    if isinstance(e, ConstInt):
        return str(e.value)
    if isinstance(e, Var):
        return e.name
    if isinstance(e, ConstFloat | ConstBool):
        return repr(e.value)
    return "?"


def shape_str(shape: Sequence[Expr]) -> str:
    return "[" + ", ".join(dim_str(d) for d in shape) + "]"


def same_dim(a: Expr, b: Expr) -> bool:
    sa, sb = static(a), static(b)
    if sa is not None and sb is not None:
        return sa == sb
    return a is b or a == b


def promote(*dts: DType) -> DType:
    """The one promotion rule (pl/ir/operators.py's `promote`), folded left over the dtypes."""
    out = dts[0]
    for d in dts[1:]:
        out = promote2(out, d)
    return out


def broadcast(ctx: Deduction, *shapes: Shape) -> Shape:
    """Right-aligned broadcast; a static 1 stretches; dynamic dims that differ keep the left one."""
    out = shapes[0]
    for s in shapes[1:]:
        out = _broadcast2(ctx, out, s)
    return out


def _broadcast2(ctx: Deduction, a: Shape, b: Shape) -> Shape:
    n = max(len(a), len(b))
    pa = (None,) * (n - len(a)) + tuple(a)
    pb = (None,) * (n - len(b)) + tuple(b)
    out: list[Expr] = []
    for x, y in zip(pa, pb, strict=False):
        if x is None or y is None:
            d = x if y is None else y
            assert d is not None
            out.append(d)
            continue
        sx, sy = static(x), static(y)
        if same_dim(x, y) or sy == 1:
            out.append(x)
        elif sx == 1:
            out.append(y)
        elif sx is None or sy is None:
            out.append(x)
        else:
            raise ctx.fail(f"The operator {ctx.name} requires compatible shapes, but got "
                           f"{shape_str(a)} and {shape_str(b)}")
    return tuple(out)


def write_bounds(ctx: Deduction, offsets: Shape, reach: Shape, target: Shape, what: str) -> bool:
    """The reference's write-bounds rule (tile.store, tile.assemble, tensor.assemble): only when
    the written extents `reach`, the offsets and the `target` share one rank is the write a
    rectangle in target coordinates, and then no write may provably end past the target. A
    rank-mismatched write reinterprets the target's axes (its leading axes take unit extents)
    and is not checked. True when the ranks are shared. (A negative constant offset is refused
    for every op before its rule runs: `deduce._check_indices`.)"""
    if not len(reach) == len(offsets) == len(target):
        return False
    for k, (o, e, d) in enumerate(zip(offsets, reach, target, strict=True)):
        so, se, sd = static(o), static(e), static(d)
        if so is not None and se is not None and sd is not None and so + se > sd:
            raise ctx.fail(f"{ctx.name} writes past the end of dimension {k}: offset {so} + extent "
                           f"{se} exceeds the {what} extent {sd}")
    return True


def valid_of(t: TileType) -> Shape:
    return effective_tile_view(t).valid_shape


def valid_shape_of(t: TileType | TensorType) -> Shape:
    """The valid region of a tile or tensor (its shape unless its view says less)."""
    if isinstance(t, TileType):
        return valid_of(t)
    return t.view.valid_shape if t.view is not None and t.view.valid_shape else t.shape


def ew_view(src: TileType, valid: Shape | None = None) -> TileView:
    """The elementwise result view: arg0's valid shape and layouts, fractal not copied."""
    v = effective_tile_view(src)
    return TileView(valid_shape=tuple(v.valid_shape if valid is None else valid),
                    blayout=v.blayout, slayout=v.slayout, pad=v.pad, compact=v.compact)


def tile(shape: Shape, dtype: DType, space: MemorySpace | None = None,
         view: TileView | None = None) -> TileType:
    return TileType(tuple(shape), dtype, space, view)


def flat_view(shape: Shape, valid: Shape | None = None) -> TileView:
    """Shape-derived (Vec-style) layout with the given valid shape."""
    from pl.ir.types import implicit_tile_view

    v = implicit_tile_view(tuple(shape), None)
    return replace(v, valid_shape=tuple(valid) if valid is not None else ())


def int_dtype_check(ctx: Deduction, dt: DType, what: str = "tile") -> None:
    if not dt.is_int():
        raise ctx.fail(f"The operator {ctx.name} requires integer {what} dtype, but got {dt.short}")


def threshold_dtype(ctx: Deduction, i: int, dtype: DType) -> None:
    """A compare-gather's threshold at position `i` is a scalar of the source's `dtype` (the
    compare reads both as one type); a literal takes that dtype."""
    dt = ctx.scalar(i)
    if dt is not dtype and not isinstance(ctx.args[i], ConstInt | ConstFloat):
        raise ctx.fail(f"The operator {ctx.name} requires kvalue dtype equal to src dtype "
                       f"{dtype.name}, but got {dt.name}", argument=i)


def dtype_in(ctx: Deduction, dt: DType, allowed: Sequence[DType], label: str = "dtype") -> None:
    if dt not in allowed:
        names = ", ".join(d.name for d in allowed)
        raise ctx.fail(f"The operator {ctx.name} requires {label} to be one of {{{names}}}, "
                       f"but got {dt.short}")


def pad_kwarg(ctx: Deduction, default: PadValue = PadValue.zero) -> PadValue:
    v = ctx.kwargs.get("pad_value", default)
    if v is None:
        v = default
    if not isinstance(v, PadValue):
        raise ctx.fail(f"The operator {ctx.name} requires pad_value to be a PadValue, got {v!r}")
    if v is PadValue.null:
        raise ctx.fail(f"The operator {ctx.name} requires a non-null pad_value")
    return v


def flip(layout: TileLayout) -> TileLayout:
    if layout is TileLayout.row_major:
        return TileLayout.col_major
    if layout is TileLayout.col_major:
        return TileLayout.row_major
    return layout


def numel(shape: Shape) -> int | None:
    n = 1
    for d in shape:
        s = static(d)
        if s is None:
            return None
        n *= s
    return n
