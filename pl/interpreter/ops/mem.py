"""Op semantics of the interpreter, part 2: memory (load/store/move/extract), views, assemble,
scalar access, padding, matmul and gemv, and the index forms of gather / scatter.

Guarantees (aliasing follows the hardware buffers, ops.md "buffer-aliasing view"):
* tile.load / move / extract / transpose / fillpad / concat and every matmul return fresh arrays;
  a load reads only the valid window (clipped to the tensor) and zero-fills the rest.
* tile.store, tensor.assemble, tile.assemble, tile.write, tensor.write, tile.fillpad_inplace,
  tile.scatter_update and tile.gather_row write into their target array and return that same
  array, so writes reach the caller's tensor; tensor.scatter / scatter_update / gather_row
  return an updated copy. An index outside its axis, or a window outside its array, is a PlError
  (never wrapped or clipped); an index repeated in one scatter is a PlError (its order is not
  defined).
* tile.slice / reshape / transpose_view / set_validshape and tensor.slice / view / reshape /
  transpose return NumPy views of their input: writing through them changes the root. (A tile
  reshape of a strided window copies; a tensor view that cannot alias raises PlError; inside an
  InCore function a tensor.slice with a narrower valid_shape is the padded load it compiles to.)
* matmuls accumulate in float32 for float inputs and in int64 (then the result dtype) for ints,
  each element in K order starting from the accumulator (matmul_acc / gemv_acc) or the bias
  (matmul_bias / gemv_bias): a product split into K blocks chained through matmul_acc computes
  bit for bit what the whole product does, on any CPU (no BLAS).
* tile.alloc / tensor.alloc (IR after memory allocation) give an `Allocation`: the Ptr names
  memory, it holds no value. A tile bound to it by a MemRef gets its value from the op that
  defines it, as any tile does; MemRefs do not alias values here (the reference shares a buffer
  only between tiles whose lifetimes do not overlap, or an in-place op's input and output, and
  for those the value semantics computes the same results).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pl.errors import PlError
from pl.interpreter.context import OpCtx, unsupported, window
from pl.interpreter.values import Array
from pl.ir.enums import MemorySpace, PadValue, TensorLayout
from pl.ir.types import TensorType
from pl.ops.marks import interprets


@dataclass(frozen=True, slots=True)
class Allocation:
    """The interpreter's value of a Ptr: where and how much, nothing to read."""

    space: MemorySpace
    size: int


@interprets("tile.alloc", "tensor.alloc")
def _alloc(c: OpCtx) -> Any:
    return Allocation(MemorySpace(int(c.arg(0))), int(c.arg(1)))


def _clipped(offsets: Sequence[int], extent: Sequence[int], bound: Sequence[int]) -> tuple[int, ...]:
    """How much of an `extent` window at `offsets` lies inside an array of shape `bound`."""
    return tuple(max(0, min(e, b - o)) for o, e, b in zip(offsets, extent, bound, strict=True))


@interprets("tile.load")
def _load(c: OpCtx) -> Any:
    src = c.array(0)
    offsets, shapes = c.ints(1), c.ints(2)
    valid = c.ints(3) if c.arg(3) is not None else shapes
    if not len(offsets) == len(shapes) == len(valid) == src.ndim:
        raise PlError(f"pl.interpret: op '{c.name}' needs offsets/shapes of the tensor's rank {src.ndim}")
    got = _clipped(offsets, valid, src.shape)
    out = np.zeros(shapes, dtype=src.dtype)
    out[window([0] * len(got), got)] = src[window(offsets, got)]
    want = c.result_shape()
    if want is not None and want != tuple(out.shape) and int(np.prod(want)) == out.size:
        out = out.reshape(want)
    return out


def _atomic_add(c: OpCtx) -> bool:
    atomic = c.kwargs.get("atomic", 0)
    name = getattr(atomic, "name", atomic)
    return name in (1, "Add", "add")


@interprets("tile.store")
def _store(c: OpCtx) -> Any:
    tile, dst = c.array(0), c.array(2)
    offsets = c.ints(1)
    valid = c.valid_shape(0)
    region = tile[window([0] * tile.ndim, valid)]
    if region.ndim != dst.ndim:
        shapes = c.ints(3) if c.arg(3) is not None else (1,) * (dst.ndim - region.ndim) + region.shape
        if int(np.prod(shapes)) != region.size:
            if _write_rows(dst, offsets, shapes, region, add=_atomic_add(c), name=c.name):
                return dst
            raise PlError(f"pl.interpret: op '{c.name}' cannot place a rank-{tile.ndim} tile into a "
                          f"rank-{dst.ndim} tensor")
        region = region.reshape(shapes)
        if _runs_off(dst, offsets, region) and dst.flags.c_contiguous:
            # A lower-rank tile addresses the tensor through its row-major layout (the DMA
            # walks the region's rows at the tensor's strides): where its padded window runs off
            # an axis, what it writes is the next elements of a contiguous tensor.
            start = int(np.ravel_multi_index(tuple(offsets), dst.shape)) \
                if all(0 <= o < d for o, d in zip(offsets, dst.shape, strict=True)) else -1
            if 0 <= start and start + region.size <= dst.size:
                flat = dst.reshape(-1)
                _write_window(flat, [start], region.reshape(-1), add=_atomic_add(c), name=c.name)
                return dst
    _write_window(dst, offsets, region, add=_atomic_add(c), name=c.name)
    return dst


def _write_rows(dst: Array, offsets: Sequence[int], shapes: Sequence[int], region: Array,
                add: bool, name: str) -> bool:
    """Store the valid region of a 2-D tile through an N-D window `shapes` it only partly
    fills (a padded tile, flattened from N-D: `flatten_tile_nd_to_2d`): the DMA writes its rows
    as the window's first rows, taken row-major over the window's leading axes, each row's first
    columns. False when the region does not fit the window's rows and columns."""
    lead = tuple(shapes[:-1])
    if region.ndim != 2 or len(shapes) != dst.ndim or not lead \
            or region.shape[1] > shapes[-1] or region.shape[0] > int(np.prod(lead)):
        return False
    _check_inside(dst, offsets, shapes, name)
    win = dst[window(offsets, shapes)]
    at: tuple[Any, ...] = (*np.unravel_index(np.arange(region.shape[0]), lead),
                           slice(0, region.shape[1]))
    if add:
        win[at] += region.astype(dst.dtype)
    else:
        win[at] = region
    return True


def _runs_off(dst: Array, offsets: Sequence[int], src: Array) -> bool:
    return any(o + e > d for o, e, d in zip(offsets, src.shape, dst.shape, strict=False))


def _write_window(dst: Array, offsets: Sequence[int], src: Array, add: bool = False,
                  name: str = "store") -> None:
    """Write `src` at `offsets`; a window leaving `dst` is an error (the hardware would write
    past the buffer: the type rules reject it where it is known while compiling)."""
    if len(offsets) != dst.ndim or src.ndim != dst.ndim:
        raise PlError(f"pl.interpret: op '{name}' writes a rank-{src.ndim} region at "
                      f"{len(offsets)} offsets into a rank-{dst.ndim} target")
    _check_inside(dst, offsets, src.shape, name)
    if add:
        dst[window(offsets, src.shape)] += src.astype(dst.dtype)
    else:
        dst[window(offsets, src.shape)] = src


def _check_inside(dst: Array, offsets: Sequence[int], extents: Sequence[int], name: str) -> None:
    """A window leaving `dst` is an error (the hardware would write past the buffer)."""
    for k, (o, e, d) in enumerate(zip(offsets, extents, dst.shape, strict=True)):
        if o < 0 or o + e > d:
            raise PlError(f"pl.interpret: op '{name}' writes past the end of dimension {k}: "
                          f"offset {o} + extent {e} exceeds the target extent {d}")


@interprets("tile.assemble", "tensor.assemble")
def _assemble(c: OpCtx) -> Any:
    target, source = c.array(0), c.array(1)
    if c.name == "tensor.assemble":  # a DMA: only the source's valid region moves
        source = source[window([0] * source.ndim, c.valid_shape(1))]
    if source.ndim < target.ndim:
        # A lower-rank source fills the trailing axes: its shape is padded with leading 1s, as
        # the reference pads the assembled window (a [2, 4] tile into [B, S, H] at [b, p, q]).
        source = source.reshape((1,) * (target.ndim - source.ndim) + source.shape)
    _write_window(target, c.ints(2), source, add=_atomic_add(c), name=c.name)
    return target


@interprets("tile.move")
def _copy(c: OpCtx) -> Any:
    return c.array(0).copy()


@interprets("tile.extract")
def _extract(c: OpCtx) -> Any:
    src = c.array(0)
    r, col = int(c.arg(1)), int(c.arg(2))
    h, w = c.ints(3)
    if r < 0 or col < 0 or r + h > src.shape[-2] or col + w > src.shape[-1]:
        raise PlError(f"pl.interpret: op '{c.name}' window ({r}, {col}) + [{h}, {w}] leaves the source tile")
    return src[..., r:r + h, col:col + w].copy()


@interprets("tile.slice", "tensor.slice")
def _slice(c: OpCtx) -> Any:
    x = c.array(0)
    shape, offsets = c.ints(1), c.ints(2)
    if len(shape) < len(offsets) == x.ndim:
        # A window of lower rank than its source takes unit extents on the leading axes (the
        # reading twin of a rank-mismatched assemble); the view has the window's own shape.
        full = (1,) * (x.ndim - len(shape)) + tuple(shape)
        return _alias_reshape(_read_window(x, offsets, full, c.name), tuple(shape), c.name)
    # What must lie inside the source is the extent read: the valid_shape when one is given (a
    # fixed-width window over a shorter tail), else the window; clamp=True lifts even that.
    requested = c.ints(3) if c.arg(3) is not None else ()
    reach = requested if len(requested) == len(shape) else shape
    _read_window(x, offsets, reach, c.name, clamp=bool(c.kwargs.get("clamp")))
    view = _read_window(x, offsets, shape, c.name, clamp=True)
    if view.shape != tuple(shape):
        # The window overhangs its source: it keeps its shape, valid up to the source edge (its
        # type says so), like the tile a clamped tile.load makes. A copy: no view of the source
        # has that shape.
        padded = np.zeros(shape, dtype=x.dtype)
        padded[window([0] * len(shape), view.shape)] = view
        view = padded
    if c.on_chip and c.name == "tensor.slice" and len(requested) == len(shape) \
            and any(v < n for v, n in zip(requested, shape, strict=True)):
        # Inside an InCore function the slice is the tile.load it compiles to: only its valid
        # region is read, the rest is padding (zero, as a load gives it), not the window's data.
        loaded = np.zeros(shape, dtype=x.dtype)
        region = window([0] * len(shape), [min(v, n) for v, n in zip(requested, view.shape,
                                                                        strict=True)])
        loaded[region] = view[region]
        view = loaded
    drop = c.ints(4) if c.arg(4) is not None else ()
    if drop:
        view = view.squeeze(axis=tuple(d % x.ndim for d in drop))
        want = c.result_shape()  # a tile view is at least 2-D: unit axes in front
        if want is not None and want != view.shape and int(np.prod(want)) == view.size:
            view = _alias_reshape(view, want, c.name)
    return view


def _read_window(x: Array, offsets: Sequence[int], shape: Sequence[int], name: str,
                 clamp: bool = False) -> Array:
    """The window as a view; one running off the source is an error unless `clamp` sanctions
    the overhang (then the view stops at the source edge)."""
    if not len(offsets) == len(shape) == x.ndim:
        raise PlError(f"pl.interpret: op '{name}' reads a window of {len(shape)} dims at "
                      f"{len(offsets)} offsets from a rank-{x.ndim} source")
    if any(o < 0 for o in offsets):  # NumPy would wrap a negative start around
        raise PlError(f"pl.interpret: op '{name}' reads at negative offsets {list(offsets)}")
    view: Array = x[window(offsets, shape)]
    if view.shape != tuple(shape) and not clamp:
        raise PlError(f"pl.interpret: op '{name}' reads a {list(shape)} window at "
                      f"{list(offsets)} past the end of a {list(x.shape)} source")
    return view


def _alias_reshape(x: Array, shape: tuple[int, ...], name: str) -> Array:
    view: Array = x.view()
    try:
        view.shape = shape
    except (AttributeError, ValueError) as err:
        raise PlError(f"pl.interpret: op '{name}' cannot view shape {list(x.shape)} as {list(shape)} "
                      "without copying") from err
    return view


@interprets("tensor.view")
def _view(c: OpCtx) -> Any:
    """A reinterpretation of the same memory. Read in the other layout with no new shape, it is
    the transpose of the trailing pair (what the swapped type says); a new shape in the source's
    row-major order is a reshape. A new shape in a column-major (DN) order depends on memory order
    the interpreter does not keep."""
    x, t = c.array(0), c.call.args[0].type
    src = t.view.layout if isinstance(t, TensorType) and t.view is not None else TensorLayout.ND
    layout = c.kwargs.get("layout", src)
    if c.arg(1) is None:
        return np.swapaxes(x, -1, -2) if layout is not src else x
    if layout is not src or src is not TensorLayout.ND:
        raise unsupported(c.name, "a new shape read in a column-major (DN) layout follows the "
                                  "memory order, which the interpreter does not model")
    return _reshape(c)


@interprets("tile.reshape", "tensor.reshape")
def _reshape(c: OpCtx) -> Any:
    x = c.array(0)
    shape = tuple(c.result_shape() or (c.ints(1) if c.arg(1) is not None else tuple(x.shape)))
    if c.name.startswith("tile.") and not x.flags.c_contiguous:
        # A reshaped strided tile window: its values are well defined, only the aliasing is lost.
        return x.reshape(shape)
    return _alias_reshape(x, shape, c.name)


@interprets("tile.transpose_view")
def _transpose_view(c: OpCtx) -> Any:
    return np.swapaxes(c.array(0), -1, -2)


@interprets("tensor.transpose")
def _transpose_axes(c: OpCtx) -> Array:
    """A view with two axes swapped (tensor.transpose aliases its input)."""
    x = c.array(0)
    return np.swapaxes(x, int(c.arg(1)), int(c.arg(2)))


@interprets("tile.transpose")
def _transpose(c: OpCtx) -> Any:
    return _transpose_axes(c).copy()


@interprets("tile.set_validshape", "tensor.set_validshape")
def _same(c: OpCtx) -> Any:
    return c.array(0)


def _index(c: OpCtx, i: int) -> tuple[int, ...]:
    """The indices of one element; one outside its axis (negative included: NumPy would count it
    from the end, the compiled program never wraps) is a PlError."""
    idx = c.ints(i)
    shape = c.array(0).shape
    if len(idx) != len(shape):
        raise PlError(f"pl.interpret: op '{c.name}' needs {len(shape)} indices, got {len(idx)}")
    if not all(0 <= k < d for k, d in zip(idx, shape, strict=True)):
        raise PlError(f"pl.interpret: op '{c.name}' indices {list(idx)} are outside the "
                      f"{list(shape)} {'tensor' if c.name.startswith('tensor.') else 'tile'}; "
                      "indices are never wrapped (a negative one does not count from the end)")
    return idx


@interprets("tile.read", "tensor.read")
def _read(c: OpCtx) -> Any:
    return c.array(0)[_index(c, 1)].item()


@interprets("tile.write", "tensor.write")
def _write(c: OpCtx) -> Any:
    x = c.array(0)
    x[_index(c, 1)] = c.arg(2)
    return x


def _pad_scalar(x: Array, pad: Any) -> Any:
    name = getattr(pad, "name", pad)
    if name in ("max", "min"):
        if np.issubdtype(x.dtype, np.floating):
            return np.inf if name == "max" else -np.inf
        info = np.iinfo(x.dtype)
        return info.max if name == "max" else info.min
    return 0


def _fill_outside(out: Array, valid: Sequence[int], value: Any) -> Array:
    keep = out[window([0] * out.ndim, valid)].copy()
    out[...] = value
    out[window([0] * out.ndim, valid)] = keep
    return out


@interprets("tile.fillpad", "tensor.fillpad", inplace=False)
@interprets("tile.fillpad_inplace", inplace=True)
def _fillpad(c: OpCtx, *, inplace: bool) -> Any:
    x = c.array(0)
    out = x if inplace else x.copy()
    return _fill_outside(out, c.valid_shape(0), _pad_scalar(x, c.kwargs.get("pad_value", PadValue.zero)))


@interprets("tile.fillpad_expand", "tensor.fillpad_expand")
def _fillpad_expand(c: OpCtx) -> Any:
    x = c.array(0)
    shape = c.ints(1)
    valid = c.valid_shape(0)
    out = np.full(shape, _pad_scalar(x, c.kwargs.get("pad_value", PadValue.zero)), dtype=x.dtype)
    out[window([0] * x.ndim, valid)] = x[window([0] * x.ndim, valid)]
    return out


@interprets("tile.concat", "tensor.concat")
def _concat(c: OpCtx) -> Any:
    return np.concatenate([c.array(0), c.array(1)], axis=-1)


@interprets("tensor.dim")
def _dim(c: OpCtx) -> Any:
    return int(c.array(0).shape[int(c.arg(1))])


# ---- matmul -------------------------------------------------------------------------------------

def _mm(a: Array, b: Array, acc: Array | None = None) -> Array:
    """`acc + a @ b` (`acc` None: zeros), each element summed in K order: `out += a[:, k] *
    b[k, :]` for k = 0, 1, ..., in float32 for float inputs (the product rounded to float32,
    exact for fp16 / bf16 operands, then the sum) and in wrapping int64 for ints.

    Elementwise NumPy, never BLAS: BLAS sums K in an order that depends on the CPU, the sizes and
    the operands' layout, so a product split into K blocks (`tile.matmul` then `tile.matmul_acc`,
    as auto_tile_matmul_l0 writes it) or into [m, n] sub-blocks, or an operand that is a view
    rather than a copy, would change the last bits. In K order from the accumulator, a K-blocked
    chain computes exactly what the whole product does, as the hardware's accumulator does."""
    floats = np.issubdtype(a.dtype, np.floating) or np.issubdtype(b.dtype, np.floating)
    kind = np.float32 if floats else np.int64
    a, b = a.astype(kind), b.astype(kind)
    if a.shape[-1] != b.shape[-2]:
        raise PlError(f"pl.interpret: matmul operands {list(a.shape)} and {list(b.shape)} do not "
                      "share their K dimension")
    shape = (*np.broadcast_shapes(a.shape[:-2], b.shape[:-2]), a.shape[-2], b.shape[-1])
    if acc is not None:
        shape = np.broadcast_shapes(shape, acc.shape)
    out: Array = np.zeros(shape, dtype=kind)
    # inf * 0 gives NaN as IEEE arithmetic does on the device; that is a value, not a warning.
    with np.errstate(invalid="ignore", over="ignore"):
        if acc is not None:
            out += acc.astype(kind)
        for k in range(a.shape[-1]):
            out += a[..., :, k:k + 1] * b[..., k:k + 1, :]
    return out


def _operands(c: OpCtx, first: int) -> tuple[Array, Array]:
    a, b = c.array(first), c.array(first + 1)
    if c.kwargs.get("a_trans"):
        a = np.swapaxes(a, -1, -2)
    if c.kwargs.get("b_trans"):
        b = np.swapaxes(b, -1, -2)
    return a, b


@interprets("tile.matmul", "tile.batch_matmul", "tensor.matmul")
def _matmul(c: OpCtx) -> Any:
    return _mm(*_operands(c, 0))


@interprets("tile.matmul_acc", "tile.batch_matmul_acc", "tensor.matmul_acc")
def _matmul_acc(c: OpCtx) -> Any:
    init = c.arg(3)
    fresh = init is not None and bool(init)
    return _mm(*_operands(c, 1), acc=None if fresh else c.array(0))


@interprets("tile.matmul_bias")
def _matmul_bias(c: OpCtx) -> Any:
    # The bias starts the accumulator, as a matmul_acc's accumulator does.
    return _mm(*_operands(c, 0), acc=c.array(2))


@interprets("tile.gemv", first=0, acc=False, bias=False)
@interprets("tile.gemv_acc", first=1, acc=True, bias=False)
@interprets("tile.gemv_bias", first=0, acc=False, bias=True)
def _gemv(c: OpCtx, *, first: int, acc: bool, bias: bool) -> Any:
    """C[1, N] = A[1, K] @ B[K, N] (+ acc row, + bias row) in row 0 of the [16, N] accumulator
    tile the type gives (rows 1..15 lie outside its valid region: 0, or the accumulator's own)."""
    lhs, rhs = c.array(first), c.array(first + 1)
    if lhs.ndim != 2 or lhs.shape[0] != 1:
        raise PlError(f"pl.interpret: op '{c.name}' needs a [1, K] row vector, got {list(lhs.shape)}")
    start = c.array(0)[:1] if acc else c.array(2)[:1] if bias else None
    row = _mm(lhs, rhs, acc=start)
    shape = c.result_shape() or row.shape
    out = c.array(0).astype(row.dtype) if acc else np.zeros(shape, dtype=row.dtype)
    out[:1] = row
    return out


def checked_indices(c: OpCtx, i: int, bound: int) -> Array:
    """Argument `i` as integer indices, each in [0, bound) (the hardware does not wrap them)."""
    ix = c.array(i)
    if not np.issubdtype(ix.dtype, np.integer):
        raise PlError(f"pl.interpret: op '{c.name}' needs integer indices as argument {i}")
    if ix.size and (int(ix.min()) < 0 or int(ix.max()) >= bound):
        raise PlError(f"pl.interpret: op '{c.name}' has an index outside [0, {bound}) "
                      f"(range {int(ix.min())}..{int(ix.max())})")
    return ix.astype(np.int64)


def _axis(c: OpCtx, rank: int) -> int:
    """The `dim` kwarg (default -1) as an axis in [0, rank)."""
    dim = c.kwargs.get("dim", -1)
    dim = -1 if dim is None else int(getattr(dim, "value", dim))
    if not -rank <= dim < rank:
        raise PlError(f"pl.interpret: op '{c.name}' has dim {dim} for a rank-{rank} input")
    return dim % rank


def _index_window(c: OpCtx, ix: Array, within: Array, axis: int | None, what: str) -> tuple[slice, ...]:
    """The leading corner of `within` that `ix` covers on every axis but `axis` (None: on every
    axis), torch's rule: the index is no larger than `what` there."""
    if ix.ndim != within.ndim or any(i > w for d, (i, w) in enumerate(zip(ix.shape, within.shape,
                                                                             strict=True)) if d != axis):
        raise PlError(f"pl.interpret: op '{c.name}' needs an index of rank {within.ndim} no larger than "
                      f"the {what} {list(within.shape)}" + ("" if axis is None else f" off dim {axis}")
                      + f", got {list(ix.shape)}")
    return tuple(slice(None) if d == axis else slice(0, n) for d, n in enumerate(ix.shape))


@interprets("tensor.gather")
def _gather(c: OpCtx) -> Any:
    """torch.gather (the reference checks its kernels against it): for dim 1 of a rank-3 input,
    output[i, j, k] = input[i, index[i, j, k], k]; the output has the index's shape."""
    src = c.array(0)
    axis = _axis(c, src.ndim)
    ix = checked_indices(c, 1, src.shape[axis])
    return np.take_along_axis(src[_index_window(c, ix, src, axis, "input")], ix, axis=axis)


@interprets("tensor.scatter")
def _scatter(c: OpCtx) -> Any:
    """torch.scatter on a copy of input, the inverse of gather: for dim -1 of a rank-2 input,
    output[b, index[b, k]] = src[b, k]. Two writes to one element have no defined order on the
    hardware, so a repeated index along dim is rejected."""
    base, src = c.array(0), c.array(2)
    axis = _axis(c, base.ndim)
    ix = checked_indices(c, 1, base.shape[axis])
    region = _index_window(c, ix, base, axis, "input")
    values = src[_index_window(c, ix, src, None, "src")] if src.ndim == ix.ndim else src
    if values.shape != ix.shape:
        raise PlError(f"pl.interpret: op '{c.name}' needs src covering the index {list(ix.shape)}, "
                      f"got {list(src.shape)}")
    lines = np.moveaxis(ix, axis, -1).reshape(-1, ix.shape[axis])
    if any(len(set(line.tolist())) != len(line) for line in lines):
        raise PlError(f"pl.interpret: op '{c.name}' writes one element twice (an index repeated along "
                      f"dim {axis}); the order of those writes is not defined")
    out = base.copy()
    np.put_along_axis(out[region], ix, values, axis=axis)
    return out


@interprets("tile.scatter_update", inplace=True)
@interprets("tensor.scatter_update", inplace=False)
def _scatter_update(c: OpCtx, *, inplace: bool) -> Any:
    """Row index.flat[k] of input (its leading axes flattened) receives row k of src (its leading
    axes flattened); the tile op writes its input (DPS), the tensor op a copy. Repeated indices
    are rejected: their write order is not defined."""
    target, src = c.array(0) if inplace else c.array(0).copy(), c.array(2)
    dim = c.kwargs.get("dim", -2)
    if int(getattr(dim, "value", dim)) != -2:
        raise PlError(f"pl.interpret: op '{c.name}' is defined for dim -2 only, got {dim}")
    width = target.shape[-1]
    rows = target.reshape(-1, width)  # a view: the target is a whole buffer
    if not np.shares_memory(rows, target):
        raise PlError(f"pl.interpret: op '{c.name}' cannot update a strided window in place")
    ix = checked_indices(c, 1, rows.shape[0]).reshape(-1)
    values = src.reshape(-1, src.shape[-1])
    if values.shape != (ix.size, width):
        raise PlError(f"pl.interpret: op '{c.name}' needs {ix.size} source rows of width {width}, "
                      f"got {list(values.shape)}")
    if len(set(ix.tolist())) != ix.size:
        raise PlError(f"pl.interpret: op '{c.name}' updates one row twice; the order is not defined")
    rows[ix] = values
    return target


@interprets("tile.gather_row", inplace=True)
@interprets("tensor.gather_row", inplace=False)
def _gather_row(c: OpCtx, *, inplace: bool) -> Any:
    """dst[dst_offset window] = src[src_offset window of `shapes` (or its valid_shape)], the
    window transposed when `transpose`; the tile op writes dst in place (DPS), the tensor op a
    copy of it."""
    dst, src = c.array(0) if inplace else c.array(0).copy(), c.array(1)
    shapes = c.ints(4)
    valid = c.ints(5) if c.arg(5) is not None else shapes
    part = src[window(c.ints(3), valid)]
    if tuple(part.shape) != tuple(valid):
        raise PlError(f"pl.interpret: op '{c.name}' window {list(valid)} at {list(c.ints(3))} leaves the "
                      f"source of shape {list(src.shape)}")
    if c.kwargs.get("transpose"):
        part = np.swapaxes(part, -1, -2)
    slot = dst[window(c.ints(2), part.shape)]
    if slot.shape != part.shape:  # NumPy would clip the slot and broadcast into nothing
        raise PlError(f"pl.interpret: op '{c.name}' slot {list(part.shape)} at {list(c.ints(2))} leaves the "
                      f"destination tile of shape {list(dst.shape)}")
    slot[...] = part
    return dst
