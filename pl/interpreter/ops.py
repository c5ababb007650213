"""Op semantics of the interpreter, part 1: arithmetic (elementwise, scalar, unary, reductions,
row/col broadcasts, cast, creation). Part 2 (`interpret_ops_mem`) has memory, views and matmul.

Guarantees: every handler returns a NEW array (inputs are never modified); tile reductions read
only the valid region of their input (a tile's or a tensor's); the caller coerces every result to the dtype of the Call's
result type, so handlers may compute in a wider type. `TABLE` maps op names to handlers; an op
absent from it is rejected by the evaluator, never approximated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from pl.errors import PlError
from pl.interpreter.context import Handler, OpCtx, window
from pl.interpreter.values import Array, np_dtype
from pl.ir.enums import DType

Fn2 = Callable[[Any, Any], Any]


def _exp(x: Array) -> Array:
    return np.exp(x)


_BINARY: dict[str, Fn2] = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": np.true_divide,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
    "shl": np.left_shift,
    "shr": np.right_shift,
    "fmod": np.fmod,
    "rem": np.remainder,
}

# Scalar forms share the binary kernels; the key is the op's base name without the trailing "s".
_SCALAR: dict[str, str] = {
    "adds": "add", "subs": "sub", "muls": "mul", "divs": "div", "maximums": "maximum",
    "minimums": "minimum", "ands": "and", "ors": "or", "xors": "xor", "shls": "shl", "shrs": "shr",
    "fmods": "fmod", "rems": "rem",
}

_UNARY: dict[str, Callable[[Array], Array]] = {
    "abs": np.abs,
    "exp": _exp,
    "neg": np.negative,
    "sqrt": np.sqrt,
    "rsqrt": lambda x: 1.0 / np.sqrt(x),
    "recip": lambda x: 1.0 / x,
    "log": np.log,
    "relu": lambda x: np.maximum(x, 0),
    "sin": np.sin,
    "cos": np.cos,
    "not": np.invert,
}


def _binary(fn: Fn2) -> Handler:
    def run(c: OpCtx) -> Any:
        with np.errstate(all="ignore"):
            return fn(c.array(0), _operand(c, 1))
    return run


def _operand(c: OpCtx, i: int) -> Any:
    """A tile/tensor or a scalar operand (tensor.add accepts both)."""
    v = c.arg(i)
    if v is None:
        raise PlError(f"pl.interpret: op '{c.name}' is missing argument {i}")
    return v


def _unary(fn: Callable[[Array], Array]) -> Handler:
    def run(c: OpCtx) -> Any:
        with np.errstate(all="ignore"):
            return fn(c.array(0))
    return run


def _three(fn: Callable[[Any, Any, Any], Any]) -> Handler:
    def run(c: OpCtx) -> Any:
        with np.errstate(all="ignore"):
            return fn(c.array(0), _operand(c, 1), _operand(c, 2))
    return run


def _lrelu(c: OpCtx) -> Any:
    x = c.array(0)
    return np.where(x > 0, x, x * c.arg(1))


# ---- reductions ---------------------------------------------------------------------------------

_REDUCE: dict[str, Callable[..., Any]] = {
    "sum": np.sum, "max": np.max, "min": np.min, "prod": np.prod,
    "argmax": np.argmax, "argmin": np.argmin,
}


def _reduce(kind: str, row: bool) -> Handler:
    fn = _REDUCE[kind]

    def run(c: OpCtx) -> Any:
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
        acc = region.astype(np.float32) if region.dtype == np.float16 and kind in ("sum", "prod") else region
        red = fn(acc, axis=axis, keepdims=True) if kind in ("sum", "max", "min", "prod") \
            else np.expand_dims(fn(acc, axis=axis), axis)
        shape = list(x.shape)
        shape[axis] = 1
        out = np.zeros(shape, dtype=red.dtype)
        out[window([0] * out.ndim, red.shape)] = red
        want = c.result_shape()
        if want is not None and want != tuple(out.shape) and int(np.prod(want)) == out.size:
            out = out.reshape(want)  # tensor.* with keep_dim=False drops the reduced axis
        return out
    return run


# ---- broadcasts -----------------------------------------------------------------------------------

def _expand(op: Fn2 | None) -> Handler:
    def run(c: OpCtx) -> Any:
        target, vec = c.array(0), c.array(1)
        with np.errstate(all="ignore"):
            if op is None:
                return np.broadcast_to(vec, target.shape).copy()
            return op(target, vec)
    return run


def _expdif(a: Any, b: Any) -> Any:
    return np.exp(a - b)


def _expands(c: OpCtx) -> Any:
    return np.full(c.array(0).shape, c.arg(1))


# ---- cast and creation ------------------------------------------------------------------------------

_CAST_MODES = {"none": 0, "rint": 1, "round": 2, "floor": 3, "ceil": 4, "trunc": 5, "odd": 6}


def _cast(c: OpCtx) -> Any:
    x = c.array(0)
    target = c.kwargs.get("target_type")
    mode = c.kwargs.get("mode", "round")
    code = _CAST_MODES.get(mode, -1) if isinstance(mode, str) else int(mode)
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


def _zeros(c: OpCtx) -> Any:
    shape, dtype = _shape_dtype(c)
    init = c.kwargs.get("init_value")
    if init is not None:
        return np.full(shape, init, dtype=dtype)
    return np.zeros(shape, dtype=dtype)


def _full(c: OpCtx) -> Any:
    shape, dtype = _shape_dtype(c)
    return np.full(shape, c.arg(1), dtype=dtype)


def build_table() -> dict[str, Handler]:
    table: dict[str, Handler] = {}
    for level in ("tile", "tensor"):
        for name, fn in _BINARY.items():
            table[f"{level}.{name}"] = _binary(fn)
        for name, base in _SCALAR.items():
            table[f"{level}.{name}"] = _binary(_BINARY[base])
        for name, ufn in _UNARY.items():
            table[f"{level}.{name}"] = _unary(ufn)
        for kind in _REDUCE:
            table[f"{level}.row_{kind}"] = _reduce(kind, row=True)
            table[f"{level}.col_{kind}"] = _reduce(kind, row=False)
        for side in ("row", "col"):
            table[f"{level}.{side}_expand"] = _expand(None)
            for name, op in (("add", np.add), ("sub", np.subtract), ("mul", np.multiply),
                             ("div", np.true_divide), ("max", np.maximum), ("min", np.minimum),
                             ("expdif", _expdif)):
                table[f"{level}.{side}_expand_{name}"] = _expand(op)
        table[f"{level}.expands"] = _expands
        table[f"{level}.cast"] = _cast
        table[f"{level}.full"] = _full
    table["tile.addc"] = _three(lambda a, b, d: a + b + d)
    table["tile.subc"] = _three(lambda a, b, d: a - b - d)
    table["tile.lrelu"] = _lrelu
    table["tile.create"] = _zeros
    table["tensor.create"] = _zeros
    # col_prod / col_argmax exist for tiles only in the op table; drop what the registry lacks.
    from pl.ops.registry import get_op

    return {k: v for k, v in table.items() if get_op(k) is not None}


TABLE: dict[str, Handler] = build_table()
