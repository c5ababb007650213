"""Op type deduction and checked Call construction (the reference's OpRegistry::Create).

`deduce_type(op, args, kwargs)` returns the result type of every registered op (tile.*, tensor.*,
system.*) from the type rule its record carries (`OpDef.type_rule`, marked `@type_rule` in the
modules of pl/ops/rules/; system ops read their result from the result column of system_ops.tsv).
`make_call(name, args, kwargs, attrs, span)` looks the op up, checks positional arity and kwarg
names, deduces, then stamps the memory space exactly like OpRegistry::Create: when the op has an
output resolver and the result TileType (or a TileType element of a TupleType result) has no space,
it gets resolver(kwargs), else the space of the first tile-typed arg that has one, else stays unset.
Every misuse raises `PlError` (located at `span` when given). Inputs are never mutated. Nothing is
memoised: every call deduces afresh, so a result never depends on what was built before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any, Final

from pl.errors import PlError
from pl.ir.enums import MemorySpace
from pl.ir.expr import Call, ConstInt, Expr, GlobalVar, MakeTuple, Op, Var
from pl.ir.keys import typed_key
from pl.ir.span import UNKNOWN_SPAN, Span
from pl.ir.types import TensorType, TileType, TupleType, Type, UnknownType
from pl.ops.registry import OpDef, get_op
from pl.ops.rules.util import Deduction


def deduce_type(op: OpDef, args: Sequence[Expr], kwargs: Mapping[str, Any]) -> Type:
    """The result type the reference's deducer gives for this call (space maybe unset)."""
    _check_indices(op, args)
    rule = op.type_rule
    if rule is None:
        return UnknownType()
    result = rule(Deduction(op.name, args, kwargs))
    keeps = _KEEPS_WINDOW.get(op.name)
    if keeps is not None and isinstance(result, TensorType) and not result.distributed \
            and keeps < len(args):
        source = args[keeps].type
        if isinstance(source, TensorType) and source.distributed:
            return replace(result, distributed=True)
    return result


# The ops whose tensor result is a view of, or the very tensor of, one argument: of a window-bound
# tensor (pld.DistributedTensor) it is window-bound too, as the reference's deducers keep
# DistributedTensorType (tensor_ops/memory.cpp, transform.cpp, tile_ops/memory.cpp).
_KEEPS_WINDOW: Final[Mapping[str, int]] = MappingProxyType({
    "tensor.slice": 0, "tensor.view": 0, "tensor.assemble": 0, "tile.store": 2,
    "tile.mscatter": 2})


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


# The positional arguments that place a window or an element (`pl.load`'s offsets, `pl.read`'s
# indices, a slice's or an assemble's offset): counted from 0, never wrapped.
_INDEX_ARGS = frozenset({"offsets", "offset", "indices", "src_offset", "dst_offset"})


def _check_indices(op: OpDef, args: Sequence[Expr]) -> None:
    """A negative constant among an op's indices or offsets is refused: the compiled program
    reads and writes at the index as written (never counting from the end, as Python's `-1`
    does), so it would be outside the tile or tensor."""
    for spec, arg in zip(op.args, args, strict=False):
        if spec.name not in _INDEX_ARGS or not isinstance(arg, MakeTuple):
            continue
        for k, e in enumerate(arg.elements):
            if isinstance(e, ConstInt) and e.value < 0:
                word = "index" if spec.name == "indices" else "offset"
                raise PlError(f"{op.name} {word} {k} is provably negative ({e.value}); indices "
                              "and offsets count from 0 and are never wrapped (a negative one "
                              "does not count from the end, as in Python)",
                              hint="write it from the start (extent - 1 for the last)")


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
    return Call(Op(name), tuple(args), pairs, tuple(attrs), result, span=span)


class CallBuilder:
    """`make_call` with a memo of result types that lives exactly as long as this object.

    A pass that rebuilds many calls after retyping their arguments (memory-space inference) makes
    one builder per run and drops it afterwards; nothing outlives the run. The memo is keyed by
    (op, the TYPES of tile / tensor Var arguments, the other arguments and the kwargs by value
    and type, `pl.ir.keys.typed_key`): a rule reads a tile or tensor Var only through its type, so
    equal keys deduce equal results. An entry also keeps the call's `Op`, which every hit shares
    (it is frozen). A call whose key cannot be hashed (a list kwarg) and every failing call take
    `make_call` itself, which raises its own located error.
    """

    __slots__ = ("_results",)

    def __init__(self) -> None:
        self._results: dict[Any, tuple[Op | GlobalVar, Type]] = {}

    def make_call(self, name: str, args: Sequence[Expr],
                  kwargs: Sequence[tuple[str, Any]] | Mapping[str, Any] = (),
                  attrs: Sequence[tuple[str, Any]] = (), span: Span = UNKNOWN_SPAN) -> Call:
        pairs = _kwarg_pairs(kwargs)
        key = (name, tuple([_arg_key(a) for a in args]), typed_key(pairs))
        try:
            hit = self._results.get(key)
        except TypeError:  # an unhashable value: deduce every time
            return make_call(name, args, pairs, attrs, span)
        if hit is not None:
            return Call(hit[0], tuple(args), pairs, tuple(attrs), hit[1], span=span)
        call = make_call(name, args, pairs, attrs, span)
        self._results[key] = (call.op, call.result_type)
        return call


def _arg_key(a: Expr) -> Any:
    if type(a) is Var:
        t = a.type
        if isinstance(t, TileType | TensorType):
            return t
    return typed_key(a)


__all__ = ["CallBuilder", "deduce_type", "make_call"]
