"""IR expressions.

`Var` and `IterArg` compare by identity (two distinct values may share a name hint); every other
expression compares by value, recursively, with spans ignored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from pl.ir.enums import DType, MemorySpace
from pl.ir.operators import BinaryOp, UnaryOp
from pl.ir.span import UNKNOWN_SPAN, Span
from pl.ir.types import ScalarType, TileType, TupleType, Type, UnknownType


class Expr:
    """Base of all expressions. Every expression has a `type`."""

    __slots__ = ()

    @property
    def type(self) -> Type:  # pragma: no cover - overridden
        raise NotImplementedError

    def static_int(self) -> int | None:
        """The value of an integer constant (`ConstInt`), else None. A method, so that types
        (pl/ir/types.py, below this module) read constant dims without importing it."""
        return None


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


@dataclass(frozen=True, slots=True, eq=False)
class IterArg(Var):
    """A loop-carried value; `init` is its value on the first iteration."""

    init: Expr = field(default=None, kw_only=True)  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"IterArg({self.name}@{id(self):x})"


@dataclass(frozen=True, slots=True)
class ConstInt(Expr):
    value: int
    dtype: DType = DType.INDEX
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)

    @property
    def type(self) -> Type:
        return ScalarType(self.dtype)

    def static_int(self) -> int | None:
        return self.value


@dataclass(frozen=True, slots=True)
class ConstFloat(Expr):
    value: float
    dtype: DType = DType.FP32
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)

    @property
    def type(self) -> Type:
        return ScalarType(self.dtype)


@dataclass(frozen=True, slots=True)
class ConstBool(Expr):
    value: bool
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)

    @property
    def type(self) -> Type:
        return ScalarType(DType.BOOL)


@dataclass(frozen=True, slots=True)
class BinaryExpr(Expr):
    op: BinaryOp
    left: Expr
    right: Expr
    dtype: DType
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)

    @property
    def type(self) -> Type:
        return ScalarType(self.dtype)


@dataclass(frozen=True, slots=True)
class UnaryExpr(Expr):
    op: UnaryOp
    operand: Expr
    dtype: DType
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)

    @property
    def type(self) -> Type:
        return ScalarType(self.dtype)


@dataclass(frozen=True, slots=True)
class MakeTuple(Expr):
    """A list literal of expressions, e.g. offsets `[0, n]`."""

    elements: tuple[Expr, ...]
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)

    @property
    def type(self) -> Type:
        return TupleType(tuple(e.type for e in self.elements))


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


@dataclass(frozen=True, slots=True)
class Op:
    """A registered operator used as a callee, e.g. `Op("tile.add")`."""

    name: str


@dataclass(frozen=True, slots=True)
class GlobalVar:
    """A program function used as a callee (`self.fn(...)`)."""

    name: str


# The attr tensor-to-tile puts on a Mat load it inserts for a tensor-level matmul operand: inference
# explains such a load as the compiler's, residency may hoist it (never a load the user wrote) and
# then strips the attr. One name for the three layers that read or write it.
MAT_BRIDGE_ATTR = "__compiler_tensor_to_tile_mat_bridge"


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


# The closed set of expression kinds (`IterArg` is a `Var`, so `case Var()` covers both). A `match`
# over `expr_kind(e)` ends in `case _: assert_never(e)`; tests/test_traverse.py checks this union
# lists every subclass of Expr.
ExprKind = Var | ConstInt | ConstFloat | ConstBool | BinaryExpr | UnaryExpr | MakeTuple | TupleGetItem | Call


def expr_kind(e: Expr) -> ExprKind:
    """`e` typed as the union of the expression kinds (the IR's fields are typed `Expr`)."""
    # A bare return, not `typing.cast`: this runs for every expression a pass visits, and `cast`
    # is a Python-level call.
    return e  # type: ignore[return-value]


# `pl.submit(self.fn, *args, deps=[...])` is a Call of the program function carrying this attr
# (and "deps" when given); its type is the callee's results plus a Scalar[TASK_ID].
SUBMIT_ATTR = "submit"

# The attrs of a launch written as keywords of pl.submit / pl.spmd_submit, attr -> keyword, in
# the order the printer writes them (`deps=`, `dumps=`, the launch spec, then the hints): the
# frontend reads each keyword into its attr, the printer writes each attr as its keyword.
SUBMIT_KEYWORDS: Mapping[str, str] = MappingProxyType({
    "deps": "deps", "dump_vars": "dumps", "core_num": "core_num", "sync_start": "sync_start",
    "allow_early_resolve": "allow_early_resolve", "predicate": "predicate"})


def is_submit(e: object) -> bool:
    """True for the Call that `pl.submit(...)` lowers to (an asynchronous task launch)."""
    return isinstance(e, Call) and isinstance(e.op, GlobalVar) and e.attr(SUBMIT_ATTR) is True


def program_call_type(return_types: Sequence[Type], submit: bool = False) -> Type:
    """The type of a call of a program function returning `return_types`: the one result, a
    tuple of several, Unknown for none; a launch (`submit`) is (*results, Scalar[TASK_ID])."""
    if submit:
        return TupleType((*return_types, ScalarType(DType.TASK_ID)))
    if len(return_types) == 1:
        return return_types[0]
    return TupleType(tuple(return_types)) if return_types else UnknownType()


def const_index(value: int) -> ConstInt:
    return ConstInt(value, DType.INDEX)


def space_code(space: MemorySpace) -> ConstInt:
    """A memory space given as an operand (`pl.tile.alloc(pl.Mem.Vec, n)`), as the IR stores
    it: its integer code, as the reference's IR does (`stored_space` reads it back)."""
    return ConstInt(space.value)


def stored_space(e: object) -> MemorySpace | None:
    """The memory space an operand `space_code` made stands for; None for any other value."""
    if type(e) is not ConstInt:
        return None
    try:
        return MemorySpace(e.value)
    except ValueError:
        return None


def space_of(e: Expr) -> MemorySpace | None:
    """The memory space of a tile-typed expression; None for any other (or a tile not placed)."""
    t = e.type
    return t.memory_space if isinstance(t, TileType) else None
