"""Op type deduction and checked Call construction (the reference's OpRegistry::Create).

`deduce_type(op, args, kwargs)` returns the result type of every registered op (tile.*, tensor.*,
system.*) from a rule chosen by op name (`deduce_tile_ew`, `deduce_tile_mem`, `deduce_tile_view`,
`deduce_tile_misc`, `deduce_tensor`, `deduce_tensor_view`; system ops read their result from the `result=` note of system_ops.tsv).
`make_call(name, args, kwargs, attrs, span)` looks the op up, checks positional arity and kwarg
names, deduces, then stamps the memory space exactly like OpRegistry::Create: when the op has an
output resolver and the result TileType (or a TileType element of a TupleType result) has no space,
it gets resolver(kwargs), else the space of the first tile-typed arg that has one, else stays unset.
Every misuse raises `PlError` (located at `span` when given). Inputs are never mutated.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pl.errors import PlError
from pl.ir.enums import DType, MemorySpace
from pl.ir.expr import Call, Expr, Op, Var
from pl.ir.keys import typed_key
from pl.ir.span import UNKNOWN_SPAN, Span
from pl.ir.types import ScalarType, TensorType, TileType, TupleType, Type, UnknownType
from pl.ops import (
    deduce_tensor,
    deduce_tensor_view,
    deduce_tile_ew,
    deduce_tile_mem,
    deduce_tile_misc,
    deduce_tile_view,
)
from pl.ops.deduce_util import Deduction
from pl.ops.registry import OpDef, get_op

Rule = Callable[[Deduction], Type]

_RULES: dict[str, Rule] = {**deduce_tile_ew.RULES, **deduce_tile_mem.RULES,
                           **deduce_tile_view.RULES, **deduce_tile_misc.RULES,
                           **deduce_tensor.RULES, **deduce_tensor_view.RULES}


def _system_rule(op: OpDef) -> Rule:
    """system.* ops: the `result=` note (Unknown or Scalar[DTYPE]); no argument checks."""
    m = re.search(r"result=Scalar\[(\w+)\]", op.notes)
    result: Type = ScalarType(DType[m.group(1)]) if m else UnknownType()

    def rule(ctx: Deduction) -> Type:
        return result
    return rule


def rule_for(op: OpDef) -> Rule | None:
    """The deduction rule of an op, or None when no rule is known (result is UnknownType)."""
    if op.level == "system":
        return _system_rule(op)
    return _RULES.get(op.name)


def deduce_type(op: OpDef, args: Sequence[Expr], kwargs: Mapping[str, Any]) -> Type:
    """The result type the reference's deducer gives for this call (space maybe unset)."""
    rule = rule_for(op)
    if rule is None:
        return UnknownType()
    return rule(Deduction(op.name, args, kwargs))


def _check_signature(op: OpDef, args: Sequence[Expr], kwargs: Sequence[tuple[str, Any]]) -> None:
    lo, hi = op.min_args, len(op.args)
    n = len(args)
    if not lo <= n <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        names = ", ".join(a.name + ("?" if a.optional else "") for a in op.args) or "none"
        raise PlError(f"Operator '{op.name}' expects {want} positional argument"
                      f"{'' if want == '1' else 's'} ({names}), but got {n}")
    accepted = [k.name for k in op.kwargs]
    for key, _ in kwargs:
        if key not in accepted:
            listing = ", ".join(accepted) if accepted else "none"
            raise PlError(f"Operator '{op.name}' got an unknown keyword argument '{key}'; "
                          f"accepted keyword arguments: {listing}")


def _stamp(op: OpDef, result: Type, args: Sequence[Expr], kwargs: dict[str, Any]) -> Type:
    if not op.output_memory.has_resolver:
        return result
    space: MemorySpace | None = op.output_memory.resolve(kwargs)
    if space is None:
        for a in args:
            t = a.type
            if isinstance(t, TileType) and t.memory_space is not None:
                space = t.memory_space
                break
    if space is None:
        return result
    if isinstance(result, TileType) and result.memory_space is None:
        return result.with_space(space)
    if isinstance(result, TupleType):
        return TupleType(tuple(t.with_space(space) if isinstance(t, TileType)
                               and t.memory_space is None else t for t in result.types))
    return result


# Deduced (and stamped) result types by (op, argument keys, kwargs). A tile or tensor argument is
# keyed by its type alone: a rule reads such an argument only through its type, so two calls whose
# arguments have equal types and whose other arguments are equal get equal results. Passes that
# rebuild a call after renaming its arguments (SSA, inference) thus skip the deduction. Scalars,
# tuples, constants and kwarg values key by value AND type (`pl.ir.keys.typed_key`: a rule may
# treat `keep_dim=0` and `keep_dim=False` differently), other Vars by identity. Bounded;
# unhashable keys skip it.
_RESULTS: dict[Any, Type] = {}
_RESULTS_LIMIT = 8192


class _TypeToken:
    """Stands for one tile / tensor type value in `_RESULTS` keys: hashing a type walks its whole
    shape, a token hashes by identity. Value-equal types share one token, so keys keep the
    by-value meaning; tokens are never reused, so dropping the tables below is always safe."""

    __slots__ = ()


_TOKEN_OF_VALUE: dict[Type, _TypeToken] = {}
# id(type object) -> (the object, kept alive so its id is not reused; its token). A program holds
# a type object per value, so this table grows with the program while `_TOKEN_OF_VALUE` stays as
# small as the number of distinct types: the two are bounded apart, and clearing this one keeps
# the tokens (and with them every `_RESULTS` entry) valid.
_TOKEN_OF_OBJECT: dict[int, tuple[Type, _TypeToken]] = {}
_OBJECTS_LIMIT = 1 << 16


def type_token(t: Type) -> _TypeToken:
    """A hashable stand-in for the value of type `t`: equal types get the same token, and a
    token is never reused for another value (see `_TypeToken`)."""
    hit = _TOKEN_OF_OBJECT.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1]
    if len(_TOKEN_OF_OBJECT) >= _OBJECTS_LIMIT:
        _TOKEN_OF_OBJECT.clear()
    if len(_TOKEN_OF_VALUE) >= _RESULTS_LIMIT:
        _TOKEN_OF_VALUE.clear()
    token = _TOKEN_OF_VALUE.setdefault(t, _TypeToken())
    _TOKEN_OF_OBJECT[id(t)] = (t, token)
    return token


def _arg_key(a: Expr) -> Any:
    if isinstance(a, Var):
        t = a.type
        if isinstance(t, TileType | TensorType):
            return type_token(t)
    return typed_key(a)


# One Op node per name: Op is an immutable value, so calls may share it.
_OPS: dict[str, Op] = {}


def _op_node(name: str) -> Op:
    op = _OPS.get(name)
    if op is None:
        op = _OPS[name] = Op(name)
    return op


def _kwarg_pairs(kwargs: Sequence[tuple[str, Any]] | Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    kind = type(kwargs)
    if kind is tuple:
        return kwargs  # type: ignore[return-value]
    if kind is list:
        return tuple(kwargs)  # type: ignore[arg-type]
    return tuple(kwargs.items()) if isinstance(kwargs, Mapping) else tuple(kwargs)


def make_call(name: str, args: Sequence[Expr],
              kwargs: Sequence[tuple[str, Any]] | Mapping[str, Any] = (),
              attrs: Sequence[tuple[str, Any]] = (), span: Span = UNKNOWN_SPAN) -> Call:
    """A typed `Call` of registered op `name`; kwargs keep the order given."""
    pairs = _kwarg_pairs(kwargs)
    key: Any
    arg_keys: list[Any] = []
    for a in args:  # `_arg_key` of each, with the usual case (a type seen before) inline
        if type(a) is Var:
            t = a.var_type
            hit = _TOKEN_OF_OBJECT.get(id(t))
            if hit is not None and hit[0] is t:
                arg_keys.append(hit[1])
                continue
        arg_keys.append(_arg_key(a))
    try:
        key = (name, tuple(arg_keys), typed_key(pairs))
        result = _RESULTS.get(key)
    except TypeError:  # an unhashable kwarg value (a list): deduce every time
        key, result = None, None
    if result is not None:
        return Call(_op_node(name), tuple(args), pairs, tuple(attrs), result, span=span)
    try:
        op = get_op(name)
        if op is None:
            raise PlError(f"Unknown operation '{name}'")
        _check_signature(op, args, pairs)
        kw = dict(pairs)
        result = _stamp(op, deduce_type(op, args, kw), args, kw)
    except PlError as e:
        if span.line > 0:
            e.located(span)
        raise
    if key is not None:
        if len(_RESULTS) >= _RESULTS_LIMIT:
            _RESULTS.clear()
        _RESULTS[key] = result
    return Call(_op_node(name), tuple(args), pairs, tuple(attrs), result, span=span)


__all__ = ["deduce_type", "make_call", "rule_for", "type_token"]
