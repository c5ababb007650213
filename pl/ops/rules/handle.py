"""Result types of the async-prefetch ops (`prefetch.make_context`, `async_prefetch`, `session`,
`wait`), checked as the reference checks them.

Guarantees: each op takes exactly its positional arguments and no kwargs; a handle argument has
the handle type its producer makes (a context from `make_context`, an event from
`async_prefetch`, a session from `session`); `async_prefetch` reads a GM tensor Var of static
shape whose every dimension but the last is 1 (one flat contiguous region). The results are the
opaque handles (pl.ir.types.HandleType) and, for `wait`, a BOOL scalar.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from pl.ir.enums import DType
from pl.ir.expr import ConstInt, Var
from pl.ir.types import HandleType, ScalarType, TensorType, Type
from pl.ops.marks import type_rule
from pl.ops.rules.util import Deduction, type_name

_PRODUCER: Final[Mapping[str, str]] = MappingProxyType({
    "PrefetchAsyncContext": "prefetch.make_context", "AsyncEvent": "prefetch.async_prefetch",
    "AsyncSession": "prefetch.session"})


def _arity(ctx: Deduction, n: int) -> None:
    ctx.nargs(n)
    if ctx.kwargs:
        raise ctx.fail(f"{ctx.name} takes no keyword arguments, but got {', '.join(ctx.kwargs)}")


def _handle(ctx: Deduction, i: int, kind: str) -> None:
    t = ctx.args[i].type
    if t != HandleType(kind):
        raise ctx.fail(f"{ctx.name} expects argument {i} to be a pl.{kind} (the result of "
                       f"{_PRODUCER[kind]}), got {type_name(t)}", argument=i)


@type_rule("prefetch.make_context")
def make_context(ctx: Deduction) -> Type:
    _arity(ctx, 0)
    return HandleType("PrefetchAsyncContext")


@type_rule("prefetch.async_prefetch")
def async_prefetch(ctx: Deduction) -> Type:
    _arity(ctx, 2)
    src = ctx.args[0]
    t = src.type
    if not isinstance(src, Var) or not isinstance(t, TensorType):
        raise ctx.fail(f"{ctx.name} expects src to be a GM tensor variable (prefetch reads global "
                       f"memory), got {type_name(t)}", argument=0)
    if not t.shape:
        raise ctx.fail(f"{ctx.name} expects src to have rank >= 1, got a rank-0 tensor", argument=0)
    for i, d in enumerate(t.shape):
        if not isinstance(d, ConstInt):
            raise ctx.fail(f"{ctx.name} expects src to have a static shape, but dimension {i} is "
                           "dynamic", argument=0)
        if i + 1 < len(t.shape) and d.value != 1:
            raise ctx.fail(f"{ctx.name} expects src to be one flat contiguous region (every "
                           f"dimension but the last 1), but dimension {i} is {d.value}; reshape "
                           "it to [N] or [1, ..., N] first", argument=0)
    _handle(ctx, 1, "PrefetchAsyncContext")
    return HandleType("AsyncEvent")


@type_rule("prefetch.session")
def session(ctx: Deduction) -> Type:
    _arity(ctx, 1)
    _handle(ctx, 0, "PrefetchAsyncContext")
    return HandleType("AsyncSession")


@type_rule("prefetch.wait")
def wait(ctx: Deduction) -> Type:
    _arity(ctx, 2)
    _handle(ctx, 0, "AsyncEvent")
    _handle(ctx, 1, "AsyncSession")
    return ScalarType(DType.BOOL)
