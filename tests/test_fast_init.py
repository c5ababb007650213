"""`fast_init` keeps the dataclass's own constructor contract: same parameters, same stored values,
`__post_init__` still runs, and classes it cannot reproduce are refused."""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass, field
from typing import Any

import pytest

from infer import decisions
from pl.ir import expr, function, span, stmt, types
from pl.ir._fast_init import fast_init


def _sample(decorate: bool) -> Any:
    @dataclass(frozen=True, slots=True)
    class Sample:
        a: int
        b: str = "b"
        c: tuple[int, ...] = field(default=(), kw_only=True)
        d: int = field(default=4, kw_only=True, compare=False)

        def __post_init__(self) -> None:
            object.__setattr__(self, "c", tuple(self.c))

    return fast_init(Sample) if decorate else Sample


def _params(cls: type) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(cls.__init__).parameters.values()]


def test_same_parameters_as_the_dataclass_init() -> None:
    assert _params(_sample(True)) == _params(_sample(False))


@pytest.mark.parametrize("call", [
    lambda cls: cls(1),
    lambda cls: cls(1, "x"),
    lambda cls: cls(a=1, b="y", c=[1, 2]),
    lambda cls: cls(2, c=[3], d=9),
])
def test_same_values_and_post_init(call: Any) -> None:
    fast, plain = call(_sample(True)), call(_sample(False))
    assert dataclasses.astuple(fast) == dataclasses.astuple(plain)
    assert type(fast.c) is tuple  # __post_init__ ran


@pytest.mark.parametrize("call", [
    lambda cls: cls(),
    lambda cls: cls(1, "x", (2,)),
    lambda cls: cls(1, e=3),
])
def test_bad_calls_are_refused_alike(call: Any) -> None:
    with pytest.raises(TypeError):
        call(_sample(False))
    with pytest.raises(TypeError):
        call(_sample(True))


def test_refuses_what_it_cannot_reproduce() -> None:
    @dataclass(frozen=True, slots=True)
    class Factory:
        items: list[int] = field(default_factory=list)

    @dataclass(slots=True)
    class Mutable:
        a: int

    @dataclass(frozen=True, slots=True)
    class NoInit:
        a: int = field(default=0, init=False)

    for cls in (Factory, Mutable, NoInit):
        with pytest.raises(TypeError, match="fast_init"):
            fast_init(cls)


_NODE_CLASSES = sorted(
    {obj for module in (decisions, expr, function, span, stmt, types) for obj in vars(module).values()
     if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == module.__name__},
    key=lambda c: c.__qualname__)


@pytest.mark.parametrize("cls", _NODE_CLASSES, ids=lambda c: c.__qualname__)
def test_every_ir_node_and_decision_has_the_fast_init(cls: type) -> None:
    assert cls.__init__.__qualname__ == f"{cls.__qualname__}.__init__"
    assert getattr(cls.__init__, "__fast_init__", False)
    fields = dataclasses.fields(cls)
    expected = [f.name for f in fields if not f.kw_only] + [f.name for f in fields if f.kw_only]
    assert [name for name, _, _ in _params(cls)][1:] == expected
