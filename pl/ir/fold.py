"""The value of the IR's scalar expressions, and its folding on constants: the one definition
`pl.interpret` computes with (pl/interpreter/values.py), the frontend folds what the user writes
with, and passes fold what they build with (an unrolled loop's index times a stride).

Guarantees:
* `binary_value(op, a, b, dtype)` / `unary_value(op, a, dtype)` are the value of a BinaryExpr /
  UnaryExpr on Python scalars before a float result is rounded to the dtype's width: an integer
  operator on integers in an integer dtype is `int_binary`; a float `//` and `%` floor; a float
  `/` by zero is an IEEE infinity or NaN; otherwise what Python computes (`op.python`,
  pl/ir/operators.py). An integer `//` or `%` by zero and a negative shift count have no value
  (`int_undefined`); the caller says what that is.
* `wrap_int(v, dtype)` wraps `v` two's-complement to the width of an integer dtype (INDEX is
  64-bit signed, UINT* unsigned); other dtypes keep `v`.
* `int_binary(op, a, b, dtype)` is the value of `BinaryExpr(op, a, b, dtype)` for an integer
  dtype (INT*, UINT*, INDEX) and an operator of `INT_OPS`: the exact result wrapped to the dtype. + - *;
  // and % floor (toward minus infinity: the remainder takes the divisor's sign); << and >> shift
  the exact value (>> is arithmetic; a count past the width shifts every bit out); & | ^ on two's
  complement; Min, Max. `int_undefined(op, b)` says why an operation has no value (a division or
  modulo by zero, a negative shift count), which `int_binary` requires it to have.
* `fold_int(op, a, b, dtype)` is `int_binary` for the operators kernels fold (`FOLDABLE`: + - * //
  % << >>), or None when it is not folded: another operator, a dtype that is not an integer one,
  or an operation without a value (left for the program to meet at run time, as written). So a
  folded expression has the value the interpreter gives the expression it replaces. Folding never
  raises.
* `fold_expr(e)` folds every BinaryExpr of `e` whose operands are (or fold to) integer constants.
"""

from __future__ import annotations

import math
from typing import Any, Final

from pl.ir.enums import DType
from pl.ir.expr import BinaryExpr, ConstInt, Expr
from pl.ir.operators import BinaryOp, Kind, UnaryOp
from pl.ir.traverse import map_expr

__all__ = ["FOLDABLE", "INT_MIN", "INT_OPS", "UINT_MAX", "binary_value", "fold_expr", "fold_int",
           "int_binary", "int_exact", "int_undefined", "unary_value", "wrap_int"]

# Integer constants are 64-bit on the device (INDEX, or UINT64 for masks).
INT_MIN, UINT_MAX = -(1 << 63), (1 << 64) - 1

_B = BinaryOp
FOLDABLE: Final = frozenset({_B.Add, _B.Sub, _B.Mul, _B.FloorDiv, _B.FloorMod, _B.BitShiftLeft,
                             _B.BitShiftRight})
# The operators with an integer definition: every arithmetic and bitwise one but / and **.
INT_OPS: Final = frozenset(op for op in BinaryOp if op.kind in (Kind.ARITH, Kind.BITWISE)
                           and op not in (_B.FloatDiv, _B.Pow))


def wrap_int(v: int, dtype: DType) -> int:
    """Two's-complement wrap of `v` to `dtype`'s width (INDEX is 64-bit signed)."""
    bits = dtype.bits
    if not dtype.is_int() or bits <= 0 or bits > 64:
        return v
    mask = (1 << bits) - 1
    v &= mask
    if dtype.is_signed_int() and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def int_undefined(op: BinaryOp, b: int) -> str | None:
    """Why `a op b` has no value whatever `a` is, or None."""
    if op is BinaryOp.FloorDiv and b == 0:
        return "integer division by zero"
    if op is BinaryOp.FloorMod and b == 0:
        return "modulo by zero"
    if op in (BinaryOp.BitShiftLeft, BinaryOp.BitShiftRight) and b < 0:
        return f"negative shift count {b}"
    return None


def int_exact(op: BinaryOp, a: int, b: int) -> int:
    """`a op b` on unbounded integers, for an operator of INT_OPS with a value (`int_undefined`).
    A shift count is capped where more shifts nothing further in a 64-bit result (`1 << 3000000000`
    would take gigabytes)."""
    assert op in INT_OPS, op
    if op is BinaryOp.BitShiftLeft:
        return a << min(b, 64)
    if op is BinaryOp.BitShiftRight:
        return a >> min(b, max(64, a.bit_length()))
    return int(op.python(a, b))


def int_binary(op: BinaryOp, a: int, b: int, dtype: DType) -> int:
    """The value of `BinaryExpr(op, a, b, dtype)` (see the module docstring)."""
    assert op in INT_OPS and dtype.is_int() and int_undefined(op, b) is None, (op, b, dtype)
    return wrap_int(int_exact(op, a, b), dtype)


def fold_int(op: BinaryOp, a: int, b: int, dtype: DType) -> int | None:
    """`int_binary(op, a, b, dtype)`, or None when this operation is not folded."""
    if op not in FOLDABLE or not dtype.is_int() or int_undefined(op, b) is not None:
        return None
    return int_binary(op, a, b, dtype)


def binary_value(op: BinaryOp, a: Any, b: Any, dtype: DType) -> Any:
    """The value of `BinaryExpr(op, a, b, dtype)` on Python scalars (see the module docstring);
    the caller has excluded `int_undefined` operations."""
    if dtype.is_int() and op in INT_OPS and isinstance(a, int) and isinstance(b, int):
        return int_binary(op, int(a), int(b), dtype)  # a bool too: True & 1 is an integer operation
    if op in (BinaryOp.FloorDiv, BinaryOp.FloorMod) and (dtype.is_float() or isinstance(a, float)
                                                         or isinstance(b, float)):
        a, b = float(a), float(b)
        q = float(math.floor(a / b))
        return q if op is BinaryOp.FloorDiv else a - q * b
    if op is BinaryOp.FloatDiv and b == 0:
        return math.copysign(math.inf, float(a)) if a != 0 else math.nan
    if op.kind is Kind.BITWISE:
        return op.python(int(a), int(b))
    return op.python(a, b)


def unary_value(op: UnaryOp, a: Any, dtype: DType) -> Any:
    """The value of `UnaryExpr(op, a, dtype)` on a Python scalar (an integer result wrapped to an
    integer dtype; a Cast is the operand, which the caller converts)."""
    if op is UnaryOp.Not:
        return not bool(a)
    value = op.python(int(a)) if op is UnaryOp.BitNot else op.python(a)
    return wrap_int(value, dtype) if dtype.is_int() and isinstance(value, int) \
        and not isinstance(value, bool) else value


def fold_expr(e: Expr) -> Expr:
    """`e` with every operation on two integer constants replaced by its value, a constant of the
    operation's dtype (inner operations first)."""
    e = map_expr(e, fold_expr)
    if isinstance(e, BinaryExpr) and isinstance(e.left, ConstInt) and isinstance(e.right, ConstInt):
        value = fold_int(e.op, e.left.value, e.right.value, e.dtype)
        if value is not None:
            return ConstInt(value, e.dtype, span=e.span)
    return e
