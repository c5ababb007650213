"""Scalar operators, one record each, and the one dtype promotion rule.

Guarantees:
- `BinaryOp` / `UnaryOp` are the `op` of `BinaryExpr` / `UnaryExpr`. Each member says its Python
  spelling (`symbol`: `+`, `and`; for an operator kernels write as a call, the function's name:
  `min`, `abs`), its Python precedence (`precedence`, lowest first: how the printer parenthesises),
  what Python computes for it on Python numbers (`python`: the static evaluator of module code
  uses it as is, and `pl.ir.fold` defines the IR's value from it), its `kind` (what its result
  dtype is: `result_dtype`) and whether kernel text may write it as an operator (`in_kernels`).
  The frontend, the static evaluator, folding, the interpreter, the printer and the type check
  read these; adding an operator is one member (a `match` over the members that misses it is a
  type error; tests/test_operators.py checks every consumer knows every member).
- `promote(a, b)` is the one dtype promotion (the reference's PromoteDataTypes,
  src/ir/op/type_inference.cpp): the same dtype is kept; a float beats an integer; more bits
  win; at equal width a signed integer beats an unsigned one (INT32 with UINT32 is INT32,
  whichever side it is on); otherwise the left one. Op type rules, scalar arithmetic in kernel
  text, `pl.min` / `pl.max` and the mypy plugin all promote with it. (The reference's scalar
  expressions keep the left dtype at equal width, so its `u + i` is UINT32 and `i + u` INT32;
  pl gives INT32 to both, docs/compatibility.md.)
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from enum import Enum
from types import MappingProxyType
from typing import Any, Final

from pl.ir.enums import DType, IrEnum

# Python precedence, lowest first; atoms (names, calls, literals) bind tightest.
OR, AND, NOT, CMP, BOR, BXOR, BAND, SHIFT, ADD, MUL, UNARY, POW, ATOM = range(13)


class Kind(Enum):
    """What an operator computes, which says its result dtype."""

    ARITH = "arithmetic"       # the promoted operand dtype
    BITWISE = "bitwise"        # the promoted operand dtype; integer operands
    COMPARE = "comparison"     # BOOL
    LOGICAL = "logical"        # BOOL


def _and(a: Any, b: Any) -> bool:
    return bool(a) and bool(b)


def _or(a: Any, b: Any) -> bool:
    return bool(a) or bool(b)


def _xor(a: Any, b: Any) -> bool:
    return bool(a) != bool(b)


class _Operator(IrEnum):
    """What every operator record starts with: (symbol, precedence, ...)."""

    @property
    def symbol(self) -> str:
        """The Python operator, or the name of the function it prints as (at ATOM precedence)."""
        return self.value[0]  # type: ignore[no-any-return]

    @property
    def precedence(self) -> int:
        return self.value[1]  # type: ignore[no-any-return]


class BinaryOp(_Operator):
    """Value: (symbol, precedence, Python's function, kind, written in kernels as an operator)."""

    Add = ("+", ADD, operator.add, Kind.ARITH, True)
    Sub = ("-", ADD, operator.sub, Kind.ARITH, True)
    Mul = ("*", MUL, operator.mul, Kind.ARITH, True)
    FloatDiv = ("/", MUL, operator.truediv, Kind.ARITH, True)
    FloorDiv = ("//", MUL, operator.floordiv, Kind.ARITH, True)
    FloorMod = ("%", MUL, operator.mod, Kind.ARITH, True)
    Pow = ("**", POW, operator.pow, Kind.ARITH, False)
    Min = ("min", ATOM, min, Kind.ARITH, False)
    Max = ("max", ATOM, max, Kind.ARITH, False)
    BitAnd = ("&", BAND, operator.and_, Kind.BITWISE, False)
    BitOr = ("|", BOR, operator.or_, Kind.BITWISE, False)
    BitXor = ("^", BXOR, operator.xor, Kind.BITWISE, False)
    BitShiftLeft = ("<<", SHIFT, operator.lshift, Kind.BITWISE, True)
    BitShiftRight = (">>", SHIFT, operator.rshift, Kind.BITWISE, True)
    Eq = ("==", CMP, operator.eq, Kind.COMPARE, True)
    Ne = ("!=", CMP, operator.ne, Kind.COMPARE, True)
    Lt = ("<", CMP, operator.lt, Kind.COMPARE, True)
    Le = ("<=", CMP, operator.le, Kind.COMPARE, True)
    Gt = (">", CMP, operator.gt, Kind.COMPARE, True)
    Ge = (">=", CMP, operator.ge, Kind.COMPARE, True)
    And = ("and", AND, _and, Kind.LOGICAL, True)
    Or = ("or", OR, _or, Kind.LOGICAL, True)
    Xor = ("xor", ATOM, _xor, Kind.LOGICAL, False)

    @property
    def python(self) -> Callable[[Any, Any], Any]:
        """What Python computes for `a op b` (or `op(a, b)`)."""
        return self.value[2]  # type: ignore[no-any-return]

    @property
    def kind(self) -> Kind:
        return self.value[3]  # type: ignore[no-any-return]

    @property
    def in_kernels(self) -> bool:
        """Kernel text may write it as a Python operator (`a + b`, `a < b`, `a and b`)."""
        return self.value[4]  # type: ignore[no-any-return]

    def result_dtype(self, left: DType, right: DType) -> DType:
        """The dtype of `left op right`: BOOL for a comparison or a logical operator, else the
        promoted operand dtype. (`pl.div` of two integers is FP32: `FloatDiv` accepts FP32 too,
        see `pl.typecheck`.)"""
        if self.kind in (Kind.COMPARE, Kind.LOGICAL):
            return DType.BOOL
        return promote(left, right)


class UnaryOp(_Operator):
    """Value: (symbol, precedence, Python's function)."""

    Neg = ("-", UNARY, operator.neg)
    BitNot = ("~", UNARY, operator.invert)
    Not = ("not ", NOT, operator.not_)
    Abs = ("abs", ATOM, abs)
    Cast = ("cast", ATOM, lambda a: a)

    @property
    def python(self) -> Callable[[Any], Any]:
        return self.value[2]  # type: ignore[no-any-return]

    def result_dtype(self, operand: DType, stored: DType) -> DType:
        """The dtype of `op operand`: BOOL for Not, the stored (target) dtype for Cast, else the
        operand's."""
        if self is UnaryOp.Not:
            return DType.BOOL
        return stored if self is UnaryOp.Cast else operand


# The operator a Python spelling means (`+` -> Add, `<` -> Lt, `and` -> And); made from the members.
BY_SYMBOL: Final[Mapping[str, BinaryOp]] = MappingProxyType({op.symbol: op for op in BinaryOp})


def promote(a: DType, b: DType) -> DType:
    """The dtype two operands of these dtypes compute in (see the module docstring)."""
    if a is b:
        return a
    if a.is_float() != b.is_float():
        return a if a.is_float() else b
    if a.bits != b.bits:
        return a if a.bits > b.bits else b
    if a.is_signed_int() != b.is_signed_int():
        return a if a.is_signed_int() else b
    return a
