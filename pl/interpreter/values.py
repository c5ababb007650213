"""Values of the interpreter: dtype mapping, BF16 rounding, and the IR's scalar arithmetic.

Guarantees: every IR dtype the interpreter accepts maps to one NumPy dtype (`np_dtype`); BF16 is
stored as float32 whose mantissa is rounded to bfloat16's 8 bits (`coerce_array`), so BF16 results
carry bfloat16 precision. Scalars are Python `int` / `float` / `bool`; a task id is a `TaskId`,
an opaque handle that is only passed along (stored, carried, tested for validity), never computed
with (`coerce_element` keeps it; no arithmetic accepts it); `scalar_binary` and
`scalar_unary` implement the IR's BinaryExpr / UnaryExpr semantics (FloorDiv and FloorMod floor
toward minus infinity, FloatDiv is true division, fixed-width integer results wrap to their width;
the value is pl/ir/fold.py's `binary_value` / `unary_value`, what constant folding computes).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from pl.errors import PlError
from pl.ir.enums import DType
from pl.ir.fold import INT_OPS, binary_value, int_undefined, unary_value, wrap_int
from pl.ir.operators import BinaryOp, UnaryOp

Array = npt.NDArray[Any]
Scalar = int | float | bool

_NP: Final[Mapping[DType, Any]] = MappingProxyType({
    DType.BOOL: np.bool_,
    DType.INT8: np.int8,
    DType.INT16: np.int16,
    DType.INT32: np.int32,
    DType.INT64: np.int64,
    DType.UINT8: np.uint8,
    DType.UINT16: np.uint16,
    DType.UINT32: np.uint32,
    DType.UINT64: np.uint64,
    DType.FP16: np.float16,
    DType.BF16: np.float32,
    DType.FP32: np.float32,
    DType.INDEX: np.int64,
    DType.TASK_ID: np.int64,
})


def np_dtype(dtype: DType) -> Any:
    """The NumPy storage dtype of an IR dtype (BF16 is stored as float32)."""
    found = _NP.get(dtype)
    if found is None:
        raise PlError(f"pl.interpret: dtype '{dtype.short}' has no NumPy counterpart in the interpreter")
    return found


def round_bf16(a: Array) -> Array:
    """Round float32 values to the nearest bfloat16 (ties to even), still stored as float32."""
    bits = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)
    # Round-to-nearest-even on the 16 dropped bits; NaN keeps a quiet payload.
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) & np.uint32(0xFFFF0000)
    out = rounded.view(np.float32).reshape(np.shape(a))
    result: Array = np.where(np.isnan(a), np.float32(np.nan), out).astype(np.float32)
    return result


def coerce_array(a: Any, dtype: DType) -> Array:
    """`a` as an array of `dtype`'s storage type; no copy when it already is one (keeps aliasing).

    BF16 values are rounded to bfloat16 precision, in place when the array is writable.
    """
    target = np_dtype(dtype)
    arr = np.asarray(a)
    if arr.dtype != target:
        with np.errstate(invalid="ignore", over="ignore"):
            arr = arr.astype(target)
    if dtype is DType.BF16:
        if arr.flags.writeable:
            arr[...] = round_bf16(arr)  # in place: rounding is idempotent and keeps views aliased
        else:
            arr = round_bf16(arr)
    return arr


@dataclass(frozen=True, slots=True)
class TaskId:
    """The value of a Scalar[TASK_ID]: which task it names is the runtime's business, so the
    interpreter keeps only what the IR can ask of it (`system.task_is_valid`)."""

    valid: bool


def coerce_element(v: Any, dtype: DType) -> Scalar | TaskId:
    """`coerce_scalar`, and for TASK_ID the task id itself (it is never a number)."""
    if dtype is DType.TASK_ID:
        if not isinstance(v, TaskId):
            raise PlError(f"pl.interpret: a task id is expected here, got {v!r}")
        return v
    return coerce_scalar(v, dtype)


def coerce_scalar(v: Any, dtype: DType) -> Scalar:
    """A Python scalar of `dtype`'s kind: bool, wrapped fixed-width int, or float."""
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, TaskId) or dtype is DType.TASK_ID:
        raise PlError("pl.interpret: a task id is not a number: it cannot be computed with")
    if dtype is DType.BOOL:
        return bool(v)
    if dtype.is_int() or dtype is DType.INDEX:
        return wrap_int(int(v) if not isinstance(v, float) else math.trunc(v), dtype)
    if dtype.is_float():
        f = float(v)
        if dtype is DType.FP16:
            return float(np.float16(f))
        if dtype is DType.FP32:
            return float(np.float32(f))
        if dtype is DType.BF16:
            return float(round_bf16(np.array([f], dtype=np.float32))[0])
        return f
    return v  # type: ignore[no-any-return]


def scalar_binary(op: BinaryOp, a: Scalar, b: Scalar, dtype: DType) -> Scalar:
    """`a op b` with the IR's semantics (pl/ir/fold.py's `binary_value`, the one the compiler
    folds with: folding an expression never changes its value), the result coerced to the
    expression's dtype."""
    if op in (BinaryOp.FloorDiv, BinaryOp.FloorMod) and b == 0:
        what = "integer division" if op is BinaryOp.FloorDiv else "modulo"
        raise PlError(f"pl.interpret: {what} by zero in a scalar expression")
    if dtype.is_int() and op in INT_OPS and isinstance(a, int) and isinstance(b, int):
        why = int_undefined(op, int(b))
        if why is not None:
            raise PlError(f"pl.interpret: {why} in a scalar expression")
    return coerce_scalar(binary_value(op, a, b, dtype), dtype)


def scalar_unary(op: UnaryOp, a: Scalar, dtype: DType) -> Scalar:
    """`op a` (Abs, Neg, Not, BitNot, Cast) coerced to the expression's dtype."""
    value = unary_value(op, a, dtype)
    return value if op is UnaryOp.Not else coerce_scalar(value, dtype)
