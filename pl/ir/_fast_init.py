"""A faster `__init__` for the IR's frozen slotted dataclasses.

A frozen dataclass's generated `__init__` stores each field with `object.__setattr__(self, name,
value)`, which looks the slot up by name on every store. The IR builds hundreds of thousands of
nodes for a large kernel (every pass rebuilds the statements it changes), so `fast_init` swaps in
an `__init__` that stores each field through its slot's descriptor, fetched once per class: about
half the cost per node.

Guarantees: the replacement takes exactly the parameters of the dataclass's own `__init__` (names,
order, defaults, keyword-only markers), stores the same values and calls `__post_init__` when the
class has one, so a node built either way is the same. Classes whose fields need what the
replacement does not reproduce (default factories, `init=False`, InitVar) are refused at import.
"""

from __future__ import annotations

import dataclasses
import types
from typing import Any, TypeVar

T = TypeVar("T", bound=type)

__all__ = ["fast_init"]


def fast_init(cls: T) -> T:
    """Replace the `__init__` of frozen slotted dataclass `cls` (see the module docstring)."""
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    if not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"fast_init: {cls.__name__} is not a frozen slotted dataclass")
    scope: dict[str, Any] = {}
    positional: list[str] = []
    keyword_only: list[str] = []
    stores: list[str] = []
    for i, f in enumerate(dataclasses.fields(cls)):
        if not f.init or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"fast_init: field {cls.__name__}.{f.name} needs the dataclass's own __init__")
        descriptor = getattr(cls, f.name)
        if type(descriptor) is not types.MemberDescriptorType:
            raise TypeError(f"fast_init: field {cls.__name__}.{f.name} is not a slot")
        scope[f"_set{i}"] = descriptor.__set__
        param = f.name
        if f.default is not dataclasses.MISSING:
            scope[f"_default{i}"] = f.default
            param += f"=_default{i}"
        (keyword_only if f.kw_only else positional).append(param)
        stores.append(f"    _set{i}(self, {f.name})")
    signature = ", ".join(["self", *positional, *(["*", *keyword_only] if keyword_only else [])])
    if hasattr(cls, "__post_init__"):
        stores.append("    self.__post_init__()")
    source = f"def __init__({signature}):\n" + "\n".join(stores or ["    pass"]) + "\n"
    exec(source, scope)  # the source is made above of field names and indices only
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__fast_init__ = True  # lets the tests tell it from the dataclass's own
    cls.__init__ = init  # type: ignore[misc]
    return cls
