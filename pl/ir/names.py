"""The names users wrote, read back from the names the compiler gives values.

Guarantees: `user_name` undoes the SSA pass's versioning (`x__ssa_v0` -> `x`, `a_k__ssa_v0_Left`
-> `a_k_Left`; lowering/ssa/support.py makes those names) and `user_text` does so for every such
name in a message. Diagnostics and reports name values this way, as the user's file does.
"""

from __future__ import annotations

import re

_SSA_SUFFIX = re.compile(r"__(?:[a-z]+_)*v\d+")


def user_name(compiled_name: str) -> str:
    """`x__ssa_v0` -> `x`, `a_k__ssa_v0_Left` -> `a_k_Left`: the name the user would write."""
    return _SSA_SUFFIX.sub("", compiled_name) or compiled_name


def user_text(text: str) -> str:
    """A message with every compiler name in it shown as the user's name."""
    return _SSA_SUFFIX.sub("", text)
