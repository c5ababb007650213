"""Subscripts on tensors and tiles: `x[i, j]`, `x[a:b, :]`, `x[i]`, and `out[a:b, :] = t`.

A subscript is sugar for the op call the reference's parser writes for it, built through the
op's record (`op_builders.build_call`), so it prints, round-trips and type-checks exactly as that
call written out would:

- read, every index a scalar and one per dimension: `pl.tensor.read(x, [i, j])` /
  `pl.tile.read(t, [i, j])` (a scalar);
- any other read: a view, `pl.tensor.slice(x, shape, offset)` / `pl.tile.slice(...)`. Numpy's
  rules: a scalar index keeps a unit window at that offset and drops its dimension (its axis is
  listed in `drop_dims`, with `[]` standing for "no valid_shape" before it); a slice `a:b` keeps
  the dimension (offset `a`, default 0; extent `b - a`, `b` defaulting to the whole axis); missing
  trailing indices are `:`. A tile slice also keeps a static allocation extent (lower bounds must
  be constants, a static upper bound is cut to the tile) and carries a narrower logical extent
  (the source's valid extent, a dynamic upper bound) in `valid_shape`;
- write `dst[...] = src`: `dst = pl.tensor.assemble(dst, src, offsets)` /
  `pl.tile.assemble(...)`, the source reshaped first (`pl.tensor.reshape`) to put unit axes
  back where scalar indices dropped them. Only before SSA conversion (not with strict_ssa).

What the reference's parser rejects is rejected here with its words: a slice step, more indices
than dimensions, an element write `dst[i, j] = v`, a dynamic lower bound or an empty static
window on a tile, a source of the other kind, rank or (static) extent than the window. Bounds are
taken as written (no negative-index wrapping, as in the reference); the ops' type rules judge them.

Errors are raised without a place; the frontend locates them at the subscript.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pl.errors import PlError
from pl.ir.enums import DType
from pl.ir.expr import BinaryExpr, ConstInt, Expr, UnaryExpr
from pl.ir.operators import BinaryOp, UnaryOp, promote
from pl.ir.span import Span
from pl.ir.types import ScalarType, TensorType, TileType, effective_tile_view
from pl.lowering.frontend import op_builders

Dim = int | Expr  # a window extent or offset: a Python int where it is a known constant


@dataclass(frozen=True, slots=True)
class Index:
    """One scalar index `i`: a unit window at offset `i`, its dimension dropped."""

    value: Expr


@dataclass(frozen=True, slots=True)
class Slice:
    """One slice `lower:upper[:step]`; None where a bound is omitted."""

    lower: Expr | None
    upper: Expr | None
    has_step: bool


Component = Index | Slice


def read(base: Expr, comps: Sequence[Component], span: Span) -> Expr:
    """`base[comps]` for a tensor or tile `base` (see the module docstring)."""
    t = base.type
    assert isinstance(t, TensorType | TileType)
    kind = "tensor" if isinstance(t, TensorType) else "tile"
    _check_rank(comps, t.rank, kind, "subscript")
    if len(comps) == t.rank and all(isinstance(c, Index) for c in comps):
        return _build(f"pl.{kind}.read", [base, [c.value for c in comps if isinstance(c, Index)]],
                      span)
    if isinstance(t, TensorType):
        shape, offset, drop = _window(comps, t.shape, "tensor subscript")
        valid: list[Dim] | None = None
    else:
        shape, offset, valid, drop = _tile_window(comps, t)
    args: list[object] = [base, shape, offset]
    if drop:
        args += [valid if valid is not None else [], drop]
    elif valid is not None:
        args.append(valid)
    return _build(f"pl.{kind}.slice", args, span)


def write(base: Expr, comps: Sequence[Component], source: Expr, span: Span) -> Expr:
    """The value `base` takes in `base[comps] = source`: an assemble of `source` into it.
    The source's reshape, where one is needed, is nested in the assemble (the flatten_call_expr
    pass gives it a statement of its own)."""
    t = base.type
    if not isinstance(t, TensorType | TileType):
        raise PlError("Subscript-write requires a Tensor, Tile, or Array target, got "
                      f"{type(t).__name__}",
                      hint="Subscript-write 'dst[...] = src' is only supported for Tensor, Tile, "
                           "and Array")
    kind = "tensor" if isinstance(t, TensorType) else "tile"
    _check_rank(comps, t.rank, kind, "subscript-write")
    if len(comps) == t.rank and all(isinstance(c, Index) for c in comps):
        raise PlError(f"Element-write 'dst[i, j] = scalar' is not supported for {kind} targets",
                      hint="Use slice indices (e.g. 'dst[i:i+1, j:j+1] = tile_1x1') or index "
                           "fewer axes")
    extents, offsets, drop = _window(comps, t.shape, f"{kind} subscript-write")
    kept = [extents[d] for d in range(len(extents)) if d not in drop]
    natural = len(kept)
    # A tile view read through a subscript is at least 2-D (unit axes put in front), so a tile
    # window also takes a source with those leading unit axes.
    floored = max(2, natural) if kind == "tile" else natural
    st = source.type
    if not isinstance(st, TensorType if kind == "tensor" else TileType):
        raise PlError(f"Subscript-write source must also be a {kind}, got "
                      f"{type(st).__name__}",
                      hint=f"The rhs of 'dst[...] = src' must be a {kind} of matching shape")
    assert isinstance(st, TensorType | TileType)
    if st.rank not in (natural, floored):
        expected = f"{natural}D" if natural == floored else f"{natural}D or {floored}D"
        raise PlError(f"Subscript-write source must be {expected} to match the rank-reduced "
                      f"{kind} window, got {st.rank}D",
                      hint="A scalar index removes its axis from the lhs window; the rhs rank "
                           "must match the remaining axes (tiles may also keep leading unit "
                           "axes to stay 2D)")
    lead = st.rank - natural
    valid = _valid_shape(st)
    for axis, want in enumerate([1] * lead + kept):
        _check_extent(axis, want, st.shape[axis], None if valid is None else valid[axis])
    if st.rank != len(extents):
        source = _lift(source, st, valid, drop, len(extents), lead, kind, span)
    return _build(f"pl.{kind}.assemble", [base, source, offsets], span)


# -- windows ------------------------------------------------------------------------------------


def _check_rank(comps: Sequence[Component], rank: int, kind: str, what: str) -> None:
    if len(comps) > rank:
        noun = kind.capitalize() + " " + what
        raise PlError(f"{noun} has {len(comps)} indices but the {kind} is {rank}D",
                      hint=f"Provide at most {rank} indices for a {rank}D {kind}")


def _no_step(c: Slice, what: str) -> None:
    if c.has_step:
        raise PlError(f"Slice step is not supported in {what}",
                      hint="Use A[start:stop] without step")


def _window(comps: Sequence[Component], full: Sequence[Expr], what: str
            ) -> tuple[list[Dim], list[Dim], list[int]]:
    """(extents, offsets, dropped axes) of a tensor view, or of any write window (`what` names
    the form in errors)."""
    shape: list[Dim] = []
    offset: list[Dim] = []
    drop: list[int] = []
    for d, c in enumerate(comps):
        if isinstance(c, Index):
            offset.append(c.value)
            shape.append(1)
            drop.append(d)
            continue
        _no_step(c, what)
        upper: Dim = full[d] if c.upper is None else c.upper
        if c.lower is None:
            offset.append(0)
            shape.append(_dim(upper))
        else:
            offset.append(c.lower)
            shape.append(extent(upper, c.lower))
    for d in range(len(comps), len(full)):
        offset.append(0)
        shape.append(_dim(full[d]))
    return shape, offset, drop


def _tile_window(comps: Sequence[Component], t: TileType
                 ) -> tuple[list[Dim], list[Dim], list[Dim] | None, list[int]]:
    """(static extents, offsets, valid extents or None when they are the static ones, dropped
    axes) of a tile view."""
    logical = effective_tile_view(t).valid_shape
    if len(logical) != t.rank:
        logical = t.shape
    shape: list[Dim] = []
    offset: list[Dim] = []
    valid: list[Dim] = []
    drop: list[int] = []
    for d, c in enumerate(comps):
        if isinstance(c, Index):
            offset.append(c.value)
            shape.append(1)
            valid.append(1)
            drop.append(d)
            continue
        _no_step(c, "tile subscript")
        lower: Dim = 0 if c.lower is None else _dim(c.lower)
        if not isinstance(lower, int):
            raise PlError("Dynamic lower bounds are not supported in tile subscript",
                          hint="Use a constant tile slice lower bound or rewrite the logic with "
                               "explicit tile ops")
        offset.append(lower)
        upper = None if c.upper is None else _dim(c.upper)
        valid_upper = _dim(logical[d]) if upper is None else _min(upper, _dim(logical[d]))
        valid.append(valid_upper if c.lower is None else _clamped_extent(valid_upper, lower))
        shape.append(_alloc_extent(_dim(t.shape[d]), lower, upper))
    for d in range(len(comps), t.rank):
        offset.append(0)
        shape.append(_dim(t.shape[d]))
        valid.append(_dim(logical[d]))
    same = all(_same_extent(a, b) for a, b in zip(shape, valid, strict=True))
    return shape, offset, None if same else valid, drop


def _alloc_extent(static: Dim, lower: int, upper: Dim | None) -> Dim:
    """The static extent backing a tile view: the window cut to the tile, positive."""
    room = max(static - lower, 0) if isinstance(static, int) else None
    if isinstance(upper, int):
        size = max(upper - lower, 0)
        if room is not None:
            size = min(size, room)
    elif room is not None:
        size = room
    else:
        return static
    if size <= 0:
        raise PlError("Tile subscript must produce a positive static extent",
                      hint="Keep tile slice bounds within the source static shape and ensure "
                           "upper > lower")
    return size


def _valid_shape(t: TensorType | TileType) -> tuple[Expr, ...] | None:
    """The source's valid shape when it has one (a tile always does)."""
    if isinstance(t, TileType):
        return effective_tile_view(t).valid_shape
    view = t.view
    return view.valid_shape if view is not None and view.valid_shape else None


def _check_extent(axis: int, want: Dim, have: Expr, valid: Expr | None) -> None:
    """A source axis must match the window's where both are constants; a source padded past
    the window (static extent larger) matches through its valid extent, which is trusted when
    dynamic."""
    w, h = _const(want), have.static_int()
    if w is None or h is None or w == h:
        return
    if valid is not None:
        v = valid.static_int()
        if v is None or v == w:
            return
    raise PlError(f"Subscript-write shape mismatch on source axis {axis}: window expects {w} "
                  f"elements, source has {h}",
                  hint="Make the source's static_shape or valid_shape match the rank-reduced "
                       "lhs window, or adjust the slice bounds")


def _lift(source: Expr, st: TensorType | TileType, valid: tuple[Expr, ...] | None,
          drop: list[int], rank: int, lead: int, kind: str, span: Span) -> Expr:
    """The source reshaped to the window's rank: a unit axis where a scalar index dropped one,
    the tile floor's leading unit axes left out. A tensor source whose valid shape is narrower
    than its shape restates it through reshape's valid_shape argument."""
    def lifted(dims: Sequence[Expr]) -> list[Dim]:
        rest = iter(dims[lead:])
        return [1 if d in drop else next(rest) for d in range(rank)]

    args: list[object] = [source, lifted(st.shape)]
    if kind == "tensor" and valid is not None and not all(
            _same_extent(a, b) for a, b in zip(st.shape, valid, strict=True)):
        args.append(lifted(valid))
    return _build(f"pl.{kind}.reshape", args, span)


def _build(spelling: str, args: list[object], span: Span) -> Expr:
    return op_builders.build_call(spelling, args, {}, span)


# -- extents ------------------------------------------------------------------------------------


def _const(d: Dim) -> int | None:
    return d if isinstance(d, int) else d.static_int()


def _dim(e: Dim) -> Dim:
    """A constant as an int, anything else as it is."""
    c = _const(e)
    return e if c is None else c


def _same_extent(a: Dim, b: Dim) -> bool:
    ca, cb = _const(a), _const(b)
    if ca is not None and cb is not None:
        return ca == cb
    return a is b


def _index(d: Dim) -> Expr:
    return ConstInt(d) if isinstance(d, int) else d


def _scalar(op: BinaryOp, a: Dim, b: Dim) -> Expr:
    """`op(a, b)` on bounds; a constant takes the other operand's integer dtype (INDEX when both
    are constants), as a literal does in kernel arithmetic; two typed operands promote."""
    left, right = _index(a), _index(b)
    typed = [t.dtype for e in (left, right) if not isinstance(e, ConstInt)
             and isinstance(t := e.type, ScalarType)]
    dtype = promote(*typed) if len(typed) == 2 else typed[0] if typed else DType.INDEX
    left, right = (ConstInt(e.value, dtype) if isinstance(e, ConstInt) else e for e in (left, right))
    return BinaryExpr(op, left, right, dtype)


def _min(a: Dim, b: Dim) -> Dim:
    ca, cb = _const(a), _const(b)
    if ca is not None and cb is not None:
        return min(ca, cb)
    return _scalar(BinaryOp.Min, a, b)


def _clamped_extent(upper: Dim, lower: int) -> Dim:
    size = extent(upper, lower)
    return max(size, 0) if isinstance(size, int) else _scalar(BinaryOp.Max, size, 0)


def extent(upper: Dim, lower: Dim) -> Dim:
    """`upper - lower`, a constant whenever the two differ by one (`i + 16` and `i`, `(k + 1) * 8`
    and `k * 8`): linear terms that cancel are compared structurally."""
    lu, ll = _linear(_index(upper)), _linear(_index(lower))
    if lu is not None and ll is not None:
        terms = dict(lu[0])
        for atom, coeff in ll[0].items():
            terms[atom] = terms.get(atom, 0) - coeff
        if not any(terms.values()):
            return lu[1] - ll[1]
    return _scalar(BinaryOp.Sub, upper, lower)


def _linear(e: Expr) -> tuple[dict[Expr, int], int] | None:
    """`e` as (coefficient of each non-linear sub-expression, constant), or None when it is not
    an integer expression."""
    t = e.type
    if not isinstance(t, ScalarType) or not t.dtype.is_int():
        return None
    if isinstance(e, ConstInt):
        return {}, e.value
    if isinstance(e, BinaryExpr) and e.op in (BinaryOp.Add, BinaryOp.Sub):
        a, b = _linear(e.left), _linear(e.right)
        if a is not None and b is not None:
            sign = 1 if e.op is BinaryOp.Add else -1
            terms = dict(a[0])
            for atom, coeff in b[0].items():
                terms[atom] = terms.get(atom, 0) + sign * coeff
            return terms, a[1] + sign * b[1]
    if isinstance(e, BinaryExpr) and e.op is BinaryOp.Mul:
        a, b = _linear(e.left), _linear(e.right)
        if a is not None and b is not None and (not a[0] or not b[0]):
            scale, other = (a[1], b) if not a[0] else (b[1], a)
            return {k: v * scale for k, v in other[0].items()}, other[1] * scale
    if isinstance(e, UnaryExpr) and e.op is UnaryOp.Neg:
        a = _linear(e.operand)
        if a is not None:
            return {k: -v for k, v in a[0].items()}, -a[1]
    return {e: 1}, 0


__all__ = ["Component", "Index", "Slice", "extent", "read", "write"]
