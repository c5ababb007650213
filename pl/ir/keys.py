"""Memo keys that tell values of different types apart.

Python says `0 == False`, `1 == 1.0` and `(0,) == (False,)`, and hashes them alike, so a memo
keyed by a user's raw value would answer for `keep_dim=0` what it computed for `keep_dim=False`
(or the reverse, depending on what was compiled first). `typed_key(v)` pairs every scalar with its
exact type, through tuples, lists and dicts, so two keys are equal only when the values are equal
AND of the same types all the way down. Every memo keyed by values a user wrote goes through it.

The memos of pl/, lowering/ and infer/ and why each is safe: `pl.ops.deduce.make_call` (kwarg
values and constant arguments: typed_key; tile/tensor arguments by type token); the printer's
`int_node` (an lru_cache with typed=True). The others are keyed by op or keyword names, source
text, object identity, or IR types, whose leaves are IR constants and enums that compare by class
(ConstInt(1) != ConstFloat(1.0), dataclass equality checks the class) - never by raw user values.
"""

from __future__ import annotations

from typing import Any


def typed_key(value: Any) -> Any:
    """A hashable-if-`value`-is key equal to another only for same-typed equal values."""
    kind = type(value)
    if kind is tuple or kind is list:
        return (kind, tuple([typed_key(x) for x in value]))
    if kind is dict:
        return (kind, tuple([(typed_key(k), typed_key(v)) for k, v in value.items()]))
    return (kind, value)


__all__ = ["typed_key"]
