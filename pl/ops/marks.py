"""Registration marks: decorators saying which ops a function implements, and the one collector.

An op's type rule (`@type_rule`, in pl/ops/rules/*.py), its interpreter function (`@interprets`,
in pl/interpreter/ops/) and its tensor-to-tile converter (`@converts`, in
lowering/tensor_to_tile/convert.py) are each marked next to their implementation. Ops that share
an implementation differ only by the keyword parameters the mark binds:

    @type_rule("tile.and", "tile.or", int_only=True)
    @type_rule("tile.add", "tile.sub")
    def binary(ctx: Deduction, *, int_only: bool = False) -> Type: ...

Guarantees: a mark only records (kind, op names, bound parameters) on the function it decorates and
returns the function itself; nothing is registered anywhere at import. `collect(kind, modules)`
reads the marks of the functions DEFINED in `modules` (an imported helper is not collected twice)
and returns a read-only mapping op name -> implementation (the function with its parameters bound);
an op claimed twice for one kind raises ValueError. The owner of each table (the op registry, the
interpreter, the converter) calls it once and holds the result as a constant.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType, ModuleType
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_ATTR = "__pl_marks__"


@dataclass(frozen=True, slots=True)
class Mark:
    kind: str                              # "type_rule" | "interpreter" | "converter"
    names: tuple[str, ...]                 # the op names the function implements
    params: tuple[tuple[str, Any], ...]    # keyword parameters bound for these ops


def mark(kind: str, names: tuple[str, ...], params: Mapping[str, Any]) -> Callable[[F], F]:
    """The decorator that marks a function as the `kind` implementation of `names`."""
    if not names:
        raise ValueError(f"a {kind} mark needs at least one op name")

    def decorate(fn: F) -> F:
        marks = getattr(fn, _ATTR, ())
        setattr(fn, _ATTR, (*marks, Mark(kind, names, tuple(params.items()))))
        return fn
    return decorate


def type_rule(*names: str, **params: Any) -> Callable[[F], F]:
    """Marks the result-type rule of `names` (`pl.ops.registry` collects it into each OpDef)."""
    return mark("type_rule", names, params)


def interprets(*names: str, **params: Any) -> Callable[[F], F]:
    """Marks the interpreter function of `names` (collected by `pl.interpreter.handlers`)."""
    return mark("interpreter", names, params)


def converts(*names: str, **params: Any) -> Callable[[F], F]:
    """Marks the tensor-to-tile converter of `names` (collected by lowering.tensor_to_tile)."""
    return mark("converter", names, params)


def collect(kind: str, modules: Iterable[ModuleType]) -> Mapping[str, Callable[..., Any]]:
    """Op name -> the `kind` implementation marked in `modules` (see the module docstring)."""
    table: dict[str, Callable[..., Any]] = {}
    for module in modules:
        for value in vars(module).values():
            if getattr(value, "__module__", None) != module.__name__:
                continue
            for m in getattr(value, _ATTR, ()):
                if m.kind != kind:
                    continue
                impl = partial(value, **dict(m.params)) if m.params else value
                for name in m.names:
                    if name in table:
                        raise ValueError(f"{name} has two {kind} implementations")
                    table[name] = impl
    return MappingProxyType(table)


__all__ = ["Mark", "collect", "converts", "interprets", "mark", "type_rule"]
