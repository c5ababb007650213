"""Fast pickling of IR nodes (the compile cache stores compiled programs).

The frozen slotted dataclasses' own pickle support calls `dataclasses.fields()` for every object
it restores; a program of 20,000 statements has hundreds of thousands of nodes. `FastPickle`
reduces a node to (class, field values), read by one `operator.attrgetter` made once per class,
and restores it without running `__init__` (the values were valid when pickled). Spans and
inference's decision records use it too: there is about one of each per statement. Object identity
inside one pickle is kept by pickle's memo, so a Var used many times is restored once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter
from typing import Any

_FIELDS: dict[type, tuple[str, ...]] = {}
_GETTERS: dict[type, Callable[[Any], tuple[Any, ...]]] = {}


def _names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = tuple(f.name for f in dataclasses.fields(cls))
        _FIELDS[cls] = names
    return names


def _field_values(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving an instance's field values as a tuple, in field order."""
    getter = _GETTERS.get(cls)
    if getter is None:
        names = _names(cls)
        if len(names) > 1:
            getter = attrgetter(*names)
        elif names:  # attrgetter of one name gives the bare value
            one = attrgetter(names[0])
            getter = lambda obj: (one(obj),)  # noqa: E731
        else:
            getter = lambda obj: ()  # noqa: E731
        _GETTERS[cls] = getter
    return getter


def _rebuild(cls: type, values: tuple[Any, ...]) -> Any:
    obj: Any = object.__new__(cls)
    for name, value in zip(_names(cls), values, strict=True):
        object.__setattr__(obj, name, value)
    return obj


class FastPickle:
    """Mixin for IR dataclasses: `__reduce__` as (rebuild, (class, field values))."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        cls = type(self)
        return (_rebuild, (cls, _field_values(cls)(self)))
