"""IR expressions.

`Var` and `IterArg` compare by identity (two distinct values may share a name hint); every other
expression compares by value, recursively, with spans ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pl.ir._fast_init import fast_init
from pl.ir.enums import DType
from pl.ir.span import UNKNOWN_SPAN, Span
from pl.ir.types import ScalarType, TupleType, Type, UnknownType


class Expr:
    """Base of all expressions. Every expression has a `type`."""

    __slots__ = ()

    @property
    def type(self) -> Type:  # pragma: no cover - overridden
        raise NotImplementedError

    def int_value(self) -> int | None:
        """The value of an integer constant (ConstInt), else None. Lets `pl.ir.types` read static
        dims without importing this module."""
        return None


@fast_init
@dataclass(frozen=True, slots=True, eq=False)
class Var(Expr):
    """A named SSA value (parameter, local, loop variable, return var). Identity is the value."""

    name: str
    var_type: Type
    span: Span = field(default=UNKNOWN_SPAN, kw_only=True)

    @property
    def type(self) -> Type:
        return self.var_type

    def __repr__(self) -> str:
        return f"Var({self.name}@{id(self):x})"


@fast_init
@dataclass(frozen=True, slots=True, eq=False)
class IterArg(Var):
    """A loop-carried value; `init` is its value on the first iteration."""

    init: Expr = field(default=None, kw_only=True)  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"IterArg({self.name}@{id(self):x})"


@fast_init
@dataclass(frozen=True, slots=True)
class ConstInt(Expr):
    value: int
    dtype: DType = DType.INDEX
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)

    @property
    def type(self) -> Type:
        return ScalarType(self.dtype)

    def int_value(self) -> int:
        return self.value


@fast_init
@dataclass(frozen=True, slots=True)
class ConstFloat(Expr):
    value: float
    dtype: DType = DType.FP32
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)

    @property
    def type(self) -> Type:
        return ScalarType(self.dtype)


@fast_init
@dataclass(frozen=True, slots=True)
class ConstBool(Expr):
    value: bool
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)

    @property
    def type(self) -> Type:
        return ScalarType(DType.BOOL)


# Binary operator names (reference spelling).
ARITH_OPS = ("Add", "Sub", "Mul", "FloorDiv", "FloorMod", "FloatDiv", "Min", "Max", "Pow",
             "BitAnd", "BitOr", "BitXor", "BitShiftLeft", "BitShiftRight")
COMPARE_OPS = ("Eq", "Ne", "Lt", "Le", "Gt", "Ge")
LOGIC_OPS = ("And", "Or", "Xor")
UNARY_OPS = ("Abs", "Neg", "Not", "BitNot", "Cast")


@fast_init
@dataclass(frozen=True, slots=True)
class BinaryExpr(Expr):
    op: str
    left: Expr
    right: Expr
    dtype: DType
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)

    @property
    def type(self) -> Type:
        return ScalarType(self.dtype)


@fast_init
@dataclass(frozen=True, slots=True)
class UnaryExpr(Expr):
    op: str
    operand: Expr
    dtype: DType
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)

    @property
    def type(self) -> Type:
        return ScalarType(self.dtype)


@fast_init
@dataclass(frozen=True, slots=True)
class MakeTuple(Expr):
    """A list literal of expressions, e.g. offsets `[0, n]`."""

    elements: tuple[Expr, ...]
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)

    @property
    def type(self) -> Type:
        return TupleType(tuple(e.type for e in self.elements))


@fast_init
@dataclass(frozen=True, slots=True)
class TupleGetItem(Expr):
    tuple_expr: Expr
    index: int
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)

    @property
    def type(self) -> Type:
        t = self.tuple_expr.type
        if isinstance(t, TupleType) and 0 <= self.index < len(t.types):
            return t.types[self.index]
        return UnknownType()


@fast_init
@dataclass(frozen=True, slots=True)
class Op:
    """A registered operator used as a callee, e.g. `Op("tile.add")`."""

    name: str


@fast_init
@dataclass(frozen=True, slots=True)
class GlobalVar:
    """A program function used as a callee (`self.fn(...)`)."""

    name: str


@fast_init
@dataclass(frozen=True, slots=True)
class Call(Expr):
    """A call of an op or a program function.

    `kwargs` are user-facing keyword arguments, `attrs` compiler-internal ones (e.g. `dump_vars`,
    the private bridge marker); both are ordered (key, value) pairs.
    """

    op: Op | GlobalVar
    args: tuple[Expr, ...]
    kwargs: tuple[tuple[str, Any], ...] = ()
    attrs: tuple[tuple[str, Any], ...] = ()
    result_type: Type = field(default=UnknownType())
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)

    @property
    def type(self) -> Type:
        return self.result_type

    @property
    def op_name(self) -> str:
        return self.op.name

    def kwarg(self, key: str, default: Any = None) -> Any:
        for k, v in self.kwargs:
            if k == key:
                return v
        return default

    def attr(self, key: str, default: Any = None) -> Any:
        for k, v in self.attrs:
            if k == key:
                return v
        return default


# `pl.submit(self.fn, *args, deps=[...])` is a Call of the program function carrying this attr
# (and "deps" when given); its type is the callee's results plus a Scalar[TASK_ID].
SUBMIT_ATTR = "submit"


def is_submit(e: object) -> bool:
    """True for the Call that `pl.submit(...)` lowers to (an asynchronous task launch)."""
    return isinstance(e, Call) and isinstance(e.op, GlobalVar) and e.attr(SUBMIT_ATTR) is True


def const_index(value: int) -> ConstInt:
    return ConstInt(value, DType.INDEX)
