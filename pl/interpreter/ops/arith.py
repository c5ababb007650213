"""Op semantics of the interpreter, part 1: arithmetic (elementwise, scalar, unary, reductions,
row/col broadcasts, comparisons to 0/1, the partial part_* ops, cast, creation, ci and tri).
Part 2 (`mem`) has memory, views and matmul.

Guarantees: every handler returns a NEW array (inputs are never modified); tile reductions read
only the valid region of their input (a tile's or a tensor's); the caller coerces every result to the dtype of the Call's
result type, so handlers may compute in a wider type. Each handler is marked `@interprets(op names,
parameters)`; `pl.interpreter.handlers` collects the marks. An op without a handler is rejected by
the evaluator, never approximated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from pl.errors import PlError
from pl.interpreter.context import OpCtx, window
from pl.interpreter.values import Array, np_dtype
from pl.ir.enums import DType
from pl.ops.marks import interprets
from pl.ops.registry import KWARG_CODES

Fn2 = Callable[[Any, Any], Any]


def _rsqrt(x: Array) -> Array:
    return 1.0 / np.sqrt(x)


def _recip(x: Array) -> Array:
    return 1.0 / x


def _relu(x: Array) -> Array:
    return np.maximum(x, 0)


# A scalar-rhs form (`adds`) runs the kernel of its tile-rhs op: NumPy broadcasts the scalar.
@interprets("tile.add", "tile.adds", "tensor.add", "tensor.adds", fn=np.add)
@interprets("tile.sub", "tile.subs", "tensor.sub", "tensor.subs", fn=np.subtract)
@interprets("tile.mul", "tile.muls", "tensor.mul", "tensor.muls", fn=np.multiply)
@interprets("tile.div", "tile.divs", "tensor.div", "tensor.divs", fn=np.true_divide)
@interprets("tile.maximum", "tile.maximums", "tensor.maximum", fn=np.maximum)
@interprets("tile.minimum", "tile.minimums", "tensor.minimum", fn=np.minimum)
@interprets("tile.and", "tile.ands", "tensor.and", "tensor.ands", fn=np.bitwise_and)
@interprets("tile.or", "tile.ors", "tensor.or", "tensor.ors", fn=np.bitwise_or)
@interprets("tile.xor", "tile.xors", "tensor.xor", "tensor.xors", fn=np.bitwise_xor)
@interprets("tile.shl", "tile.shls", "tensor.shl", "tensor.shls", fn=np.left_shift)
@interprets("tile.shr", "tile.shrs", "tensor.shr", "tensor.shrs", fn=np.right_shift)
@interprets("tile.fmod", "tile.fmods", "tensor.fmod", "tensor.fmods", fn=np.fmod)
@interprets("tile.rem", "tile.rems", fn=np.remainder)
def _binary(c: OpCtx, *, fn: Fn2) -> Any:
    with np.errstate(all="ignore"):
        return fn(_in_result_dtype(c, c.array(0)), _in_result_dtype(c, _operand(c, 1)))


def _in_result_dtype(c: OpCtx, v: Any) -> Any:
    """An array operand in the storage dtype of the op's result: an elementwise op computes in
    its result dtype (`pl.add(int32_tensor, 0.5)` adds in FP32, `pl.exp(int8_tensor)` in FP32),
    as its compiled form does once its operands are cast to it; NumPy's own promotion would
    compute `int8 + int32 scalar` in INT8 and `exp(int8)` in FP16. A scalar stays a Python
    number, which NumPy takes in the array's dtype."""
    want = c.result_dtype()
    if isinstance(v, np.ndarray) and want is not None and v.dtype != want:
        return v.astype(want)
    return v


def _operand(c: OpCtx, i: int) -> Any:
    """A tile/tensor or a scalar operand (tensor.add accepts both)."""
    v = c.arg(i)
    if v is None:
        raise PlError(f"pl.interpret: op '{c.name}' is missing argument {i}")
    return v


@interprets("tile.abs", "tensor.abs", fn=np.abs)
@interprets("tile.exp", "tensor.exp", fn=np.exp)
@interprets("tile.neg", "tensor.neg", fn=np.negative)
@interprets("tile.sqrt", "tensor.sqrt", fn=np.sqrt)
@interprets("tile.rsqrt", "tensor.rsqrt", fn=_rsqrt)
@interprets("tile.recip", "tensor.recip", fn=_recip)
@interprets("tile.log", "tensor.log", fn=np.log)
@interprets("tile.relu", fn=_relu)
@interprets("tile.sin", "tensor.sin", fn=np.sin)
@interprets("tile.cos", "tensor.cos", fn=np.cos)
@interprets("tile.not", "tensor.not", fn=np.invert)
def _unary(c: OpCtx, *, fn: Callable[[Array], Array]) -> Any:
    with np.errstate(all="ignore"):
        return fn(_in_result_dtype(c, c.array(0)))


def _addc(a: Any, b: Any, d: Any) -> Any:
    return a + b + d


def _subc(a: Any, b: Any, d: Any) -> Any:
    return a - b - d


@interprets("tile.addc", "tile.addsc", fn=_addc)
@interprets("tile.subc", "tile.subsc", fn=_subc)
def _three(c: OpCtx, *, fn: Callable[[Any, Any, Any], Any]) -> Any:
    with np.errstate(all="ignore"):
        return fn(c.array(0), _operand(c, 1), _operand(c, 2))


@interprets("tile.lrelu")
def _lrelu(c: OpCtx) -> Any:
    x = c.array(0)
    return np.where(x > 0, x, x * c.arg(1))


@interprets("tile.prelu")
def _prelu(c: OpCtx) -> Any:
    """x where x > 0, else x times the slope at the same position (arg 2 is the op's scratch)."""
    x = c.array(0)
    with np.errstate(all="ignore"):
        return np.where(x > 0, x, x * c.array(1))


# The reference's comparison codes (cmp_type): EQ=0, NE=1, LT=2, LE=3, GT=4, GE=5.
COMPARE: tuple[Fn2, ...] = (np.equal, np.not_equal, np.less, np.less_equal, np.greater,
                             np.greater_equal)


@interprets("tensor.cmp")
def _tensor_cmp(c: OpCtx) -> Any:
    """1 where `lhs cmp rhs` holds, else 0, compared in and given in the operands' promoted dtype
    (tile.cmp's packed bit mask is not this)."""
    code = c.kwargs.get("cmp_type", 0)
    code = int(getattr(code, "value", code))
    if not 0 <= code < len(COMPARE):
        raise PlError(f"pl.interpret: op '{c.name}' has cmp_type {code}; the codes are 0 (eq) to 5 (ge)")
    lhs = _in_result_dtype(c, c.array(0))
    with np.errstate(invalid="ignore"):
        return COMPARE[code](lhs, _in_result_dtype(c, _operand(c, 1))).astype(lhs.dtype)


def _part(fn: Fn2, a: Array, b: Array, valid_a: tuple[int, ...], valid_b: tuple[int, ...]) -> Array:
    """`fn` where both sources are valid, the one valid source where only one is, 0 elsewhere."""
    shape = np.broadcast_shapes(a.shape, b.shape)
    in_a = np.zeros(shape, dtype=bool)
    in_a[window([0] * len(shape), valid_a)] = True
    in_b = np.zeros(shape, dtype=bool)
    in_b[window([0] * len(shape), valid_b)] = True
    with np.errstate(all="ignore"):
        both = fn(a, b)
    zero = np.zeros((), dtype=both.dtype)
    out: Array = np.where(in_a & in_b, both, np.where(in_a, a, np.where(in_b, b, zero)))
    return out


@interprets("tile.part_add", "tensor.part_add", fn=np.add)
@interprets("tile.part_mul", "tensor.part_mul", fn=np.multiply)
@interprets("tile.part_max", "tensor.part_max", fn=np.maximum)
@interprets("tile.part_min", "tensor.part_min", fn=np.minimum)
def _partial(c: OpCtx, *, fn: Fn2) -> Any:
    """part_*: over the destination's valid region; where only one source is valid the result
    copies that source (the reference's TPART* semantics)."""
    a, b = c.array(0), c.array(1)
    if a.ndim != b.ndim:
        raise PlError(f"pl.interpret: op '{c.name}' needs sources of one rank, got {a.ndim} and {b.ndim}")
    return _part(fn, a, b, c.valid_shape(0), c.valid_shape(1))


# ---- reductions ---------------------------------------------------------------------------------

@interprets("tile.row_sum", "tensor.row_sum", fn=np.sum, row=True)
@interprets("tile.row_max", "tensor.row_max", fn=np.max, row=True)
@interprets("tile.row_min", "tensor.row_min", fn=np.min, row=True)
@interprets("tile.row_prod", "tensor.row_prod", fn=np.prod, row=True)
@interprets("tile.row_argmax", "tensor.row_argmax", fn=np.argmax, row=True)
@interprets("tile.row_argmin", "tensor.row_argmin", fn=np.argmin, row=True)
@interprets("tile.col_sum", "tensor.col_sum", fn=np.sum, row=False)
@interprets("tile.col_max", "tensor.col_max", fn=np.max, row=False)
@interprets("tile.col_min", "tensor.col_min", fn=np.min, row=False)
@interprets("tile.col_prod", "tensor.col_prod", fn=np.prod, row=False)
@interprets("tile.col_argmax", "tensor.col_argmax", fn=np.argmax, row=False)
@interprets("tile.col_argmin", "tensor.col_argmin", fn=np.argmin, row=False)
def _reduce(c: OpCtx, *, fn: Callable[..., Any], row: bool) -> Any:
    x = c.array(0)
    if x.ndim < 2:
        raise PlError(f"pl.interpret: op '{c.name}' needs an input of rank >= 2")
    is_tile = c.name.startswith("tile.")
    # A tensor's declared valid region bounds its reductions exactly as a tile's does (the
    # padding of a set_validshape never takes part; the reduced rows outside it are zero).
    region = x[window([0] * x.ndim, c.valid_shape(0))]
    # tile.col_* reduce axis 0 (ops.md); tile.row_* the last; tensor ops their `axis`
    # kwarg (default: the last for row_*, -2 for col_*).
    axis = -1 if row else (0 if is_tile else -2)
    if not is_tile and c.kwargs.get("axis") is not None:
        given = c.kwargs["axis"]
        axis = int(getattr(given, "value", given))
    widen = region.dtype == np.float16 and fn in (np.sum, np.prod)
    # A row-major copy: numpy's summation order follows the memory layout, and a view (a
    # transposed or sliced tile) must reduce to the very bits its copy does (see mem._mm).
    acc = np.ascontiguousarray(region, dtype=np.float32 if widen else region.dtype)
    red = np.expand_dims(fn(acc, axis=axis), axis) if fn in (np.argmax, np.argmin) \
        else fn(acc, axis=axis, keepdims=True)
    shape = list(x.shape)
    shape[axis] = 1
    out = np.zeros(shape, dtype=red.dtype)
    out[window([0] * out.ndim, red.shape)] = red
    want = c.result_shape()
    if want is not None and want != tuple(out.shape) and int(np.prod(want)) == out.size:
        out = out.reshape(want)  # tensor.* with keep_dim=False drops the reduced axis
    return out


# ---- broadcasts -----------------------------------------------------------------------------------

def _expdif(a: Any, b: Any) -> Any:
    return np.exp(a - b)


@interprets("tile.row_expand", "tile.col_expand", "tensor.row_expand", "tensor.col_expand", op=None)
@interprets("tile.row_expand_add", "tile.col_expand_add", "tensor.row_expand_add", "tensor.col_expand_add",
            op=np.add)
@interprets("tile.row_expand_sub", "tile.col_expand_sub", "tensor.row_expand_sub", "tensor.col_expand_sub",
            op=np.subtract)
@interprets("tile.row_expand_mul", "tile.col_expand_mul", "tensor.row_expand_mul", "tensor.col_expand_mul",
            op=np.multiply)
@interprets("tile.row_expand_div", "tile.col_expand_div", "tensor.row_expand_div", "tensor.col_expand_div",
            op=np.true_divide)
@interprets("tile.row_expand_max", "tile.col_expand_max", "tensor.row_expand_max", "tensor.col_expand_max",
            op=np.maximum)
@interprets("tile.row_expand_min", "tile.col_expand_min", "tensor.row_expand_min", "tensor.col_expand_min",
            op=np.minimum)
@interprets("tile.row_expand_expdif", "tile.col_expand_expdif", "tensor.row_expand_expdif",
            "tensor.col_expand_expdif", op=_expdif)
def _expand(c: OpCtx, *, op: Fn2 | None) -> Any:
    """row_expand_* / col_expand_*: the vector operand broadcasts against the target."""
    target, vec = c.array(0), c.array(1)
    with np.errstate(all="ignore"):
        if op is None:
            return np.broadcast_to(vec, target.shape).copy()
        return op(target, vec)


@interprets("tensor.expand_clone")
def _expand_clone(c: OpCtx) -> Any:
    """A new tensor of the target's shape: the input broadcast along its extent-1 axes (the
    target gives only the shape; its values are not read)."""
    return np.broadcast_to(c.array(0), c.array(1).shape).copy()


@interprets("tile.expands", "tensor.expands")
def _expands(c: OpCtx) -> Any:
    return np.full(c.array(0).shape, c.arg(1))


# ---- cast and creation ------------------------------------------------------------------------------

@interprets("tile.cast", "tensor.cast")
def _cast(c: OpCtx) -> Any:
    x = c.array(0)
    target = c.kwargs.get("target_type")
    mode = c.kwargs.get("mode", "round")
    code = KWARG_CODES["mode"].get(mode, -1) if isinstance(mode, str) else int(mode)
    if not isinstance(target, DType):
        raise PlError(f"pl.interpret: op '{c.name}' needs a DType target_type")
    if target.is_float() or not np.issubdtype(x.dtype, np.floating):
        return x.astype(np_dtype(target))
    rounders: dict[int, Callable[[Array], Array]] = {
        0: np.rint, 1: np.rint, 2: lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5),
        3: np.floor, 4: np.ceil, 5: np.trunc,
    }
    rounder = rounders.get(code)
    if rounder is None:
        raise PlError(f"pl.interpret: op '{c.name}' with mode {mode!r} is not supported by the interpreter")
    with np.errstate(invalid="ignore"):
        return rounder(x.astype(np.float64)).astype(np_dtype(target))


def _shape_dtype(c: OpCtx) -> tuple[tuple[int, ...], Any]:
    shape = c.result_shape()
    if shape is None:
        shape = c.ints(0)
    dtype = c.result_dtype()
    if dtype is None:
        dt = c.kwargs.get("dtype")
        dtype = np_dtype(dt) if isinstance(dt, DType) else np.float32
    return shape, dtype


@interprets("tile.create", "tensor.create", "tensor.create_l1")
def _zeros(c: OpCtx) -> Any:
    shape, dtype = _shape_dtype(c)
    init = c.kwargs.get("init_value")
    if init is not None:
        return np.full(shape, init, dtype=dtype)
    return np.zeros(shape, dtype=dtype)


@interprets("tile.full", "tensor.full")
def _full(c: OpCtx) -> Any:
    shape, dtype = _shape_dtype(c)
    return np.full(shape, c.arg(1), dtype=dtype)


@interprets("tile.ci", "tensor.ci")
def _ci(c: OpCtx) -> Any:
    """start + k (descending: start - k) along the last axis; the hardware fills only the first
    row, so a shape with a leading extent other than 1 has undefined rows and is rejected."""
    shape, dtype = _shape_dtype(c)
    if any(d != 1 for d in shape[:-1]):
        raise PlError(f"pl.interpret: op '{c.name}' fills only the first row, so its leading "
                      f"dimensions must be 1, got shape {list(shape)}")
    step = -1 if c.kwargs.get("descending") else 1
    seq = int(c.arg(0)) + step * np.arange(shape[-1] if shape else 1, dtype=np.int64)
    return seq.reshape(shape).astype(dtype)


@interprets("tile.tri")
def _tri(c: OpCtx) -> Any:
    """1 where column j <= row i + diagonal (upper: j >= i + diagonal), else 0, inside the valid
    region. Outside it the reference writes nothing (undefined contents); the interpreter has 0."""
    shape, dtype = _shape_dtype(c)
    if len(shape) != 2:
        raise PlError(f"pl.interpret: op '{c.name}' needs a 2-D shape, got {list(shape)}")
    rows, cols = np.indices(shape)
    diagonal = int(c.arg(0))
    mask = cols >= rows + diagonal if c.kwargs.get("upper") else cols <= rows + diagonal
    valid = c.ints(2) if c.arg(2) is not None else shape
    out = np.zeros(shape, dtype=dtype)
    region = window([0, 0], valid)
    out[region] = mask[region]
    return out
