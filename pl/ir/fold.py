"""The integer arithmetic of the IR's scalar expressions, and its folding on constants: the one
definition `pl.interpret` computes with (pl/interpreter/values.py), the frontend folds what the
user writes with, and passes fold what they build with (an unrolled loop's index times a stride).

Guarantees:
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

from typing import Final

from pl.ir.enums import DType
from pl.ir.expr import BinaryExpr, ConstInt, Expr
from pl.ir.traverse import map_expr

__all__ = ["FOLDABLE", "INT_MIN", "INT_OPS", "UINT_MAX", "fold_expr", "fold_int", "int_binary",
           "int_exact", "int_undefined", "wrap_int"]

# Integer constants are 64-bit on the device (INDEX, or UINT64 for masks).
INT_MIN, UINT_MAX = -(1 << 63), (1 << 64) - 1

FOLDABLE: Final = frozenset({"Add", "Sub", "Mul", "FloorDiv", "FloorMod", "BitShiftLeft",
                             "BitShiftRight"})
INT_OPS: Final = FOLDABLE | {"BitAnd", "BitOr", "BitXor", "Min", "Max"}


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


def int_undefined(op: str, b: int) -> str | None:
    """Why `a op b` has no value whatever `a` is, or None."""
    if op == "FloorDiv" and b == 0:
        return "integer division by zero"
    if op == "FloorMod" and b == 0:
        return "modulo by zero"
    if op in ("BitShiftLeft", "BitShiftRight") and b < 0:
        return f"negative shift count {b}"
    return None


def int_exact(op: str, a: int, b: int) -> int:
    """`a op b` on unbounded integers, for an operator of INT_OPS with a value (`int_undefined`).
    A shift count is capped where more shifts nothing further in a 64-bit result (`1 << 3000000000`
    would take gigabytes)."""
    match op:
        case "Add":
            return a + b
        case "Sub":
            return a - b
        case "Mul":
            return a * b
        case "FloorDiv":
            return a // b
        case "FloorMod":
            return a % b
        case "BitShiftLeft":
            return a << min(b, 64)
        case "BitShiftRight":
            return a >> min(b, max(64, a.bit_length()))
        case "BitAnd":
            return a & b
        case "BitOr":
            return a | b
        case "BitXor":
            return a ^ b
        case "Min":
            return min(a, b)
        case "Max":
            return max(a, b)
    raise AssertionError(f"not an integer operator: {op}")


def int_binary(op: str, a: int, b: int, dtype: DType) -> int:
    """The value of `BinaryExpr(op, a, b, dtype)` (see the module docstring)."""
    assert op in INT_OPS and dtype.is_int() and int_undefined(op, b) is None, (op, b, dtype)
    return wrap_int(int_exact(op, a, b), dtype)


def fold_int(op: str, a: int, b: int, dtype: DType) -> int | None:
    """`int_binary(op, a, b, dtype)`, or None when this operation is not folded."""
    if op not in FOLDABLE or not dtype.is_int() or int_undefined(op, b) is not None:
        return None
    return int_binary(op, a, b, dtype)


def fold_expr(e: Expr) -> Expr:
    """`e` with every operation on two integer constants replaced by its value, a constant of the
    operation's dtype (inner operations first)."""
    e = map_expr(e, fold_expr)
    if isinstance(e, BinaryExpr) and isinstance(e.left, ConstInt) and isinstance(e.right, ConstInt):
        value = fold_int(e.op, e.left.value, e.right.value, e.dtype)
        if value is not None:
            return ConstInt(value, e.dtype, span=e.span)
    return e
