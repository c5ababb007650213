"""Folding of integer arithmetic on two constants: the one rule the frontend applies to what the
user writes and passes apply to what they build (an unrolled loop's index times a stride).

Guarantees: `fold_int(op, a, b)` is the value of `a op b` for the integer operators kernels fold
(+ - * // % << >>), or None when it is not folded: an operator not listed, a division or modulo
by zero (left for the program to meet at run time, as written), a negative shift count, a left
shift past 64 bits of a non-zero value, or a result outside the device's 64-bit integers
[INT_MIN, UINT_MAX]. Folding never raises.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Final

__all__ = ["FOLDABLE", "INT_MIN", "UINT_MAX", "fold_int"]

# Integer constants are 64-bit on the device (INDEX, or UINT64 for masks).
INT_MIN, UINT_MAX = -(1 << 63), (1 << 64) - 1

FOLDABLE: Final[Mapping[str, Callable[[int, int], int]]] = MappingProxyType({
    "Add": lambda a, b: a + b, "Sub": lambda a, b: a - b, "Mul": lambda a, b: a * b,
    "FloorDiv": lambda a, b: a // b, "FloorMod": lambda a, b: a % b,
    "BitShiftLeft": lambda a, b: a << b, "BitShiftRight": lambda a, b: a >> b})


def fold_int(op: str, a: int, b: int) -> int | None:
    """`a op b`, or None when this pair is not folded (see the module docstring)."""
    rule = FOLDABLE.get(op)
    if rule is None or (op in ("FloorDiv", "FloorMod") and b == 0):
        return None
    if op in ("BitShiftLeft", "BitShiftRight") and b < 0:
        return None
    if op == "BitShiftLeft" and b >= 64 and a != 0:
        return None  # `1 << 3000000000` would take gigabytes; past 64 bits it cannot fit anyway
    value = rule(a, b)
    return value if INT_MIN <= value <= UINT_MAX else None
