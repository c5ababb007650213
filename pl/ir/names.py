"""The names users wrote, read back from the names the compiler gives values.

Guarantees: `user_name` undoes the SSA pass's versioning (`x__ssa_v0` -> `x`, `a_k__ssa_v0_Left`
-> `a_k_Left`; lowering/ssa/support.py makes those names) and `user_text` does so for every such
name in a message. Diagnostics and reports name values this way, as the user's file does.
`source_variable` goes further back, to the variable of the user's a compiled value was made from
(`q__ssa_v0_mat`, the Mat load inserted for the parameter `q` -> `q`; tensor-to-tile's `__tile`,
lowering/tensor_to_tile/common.py, is such a mark too).
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


# Where a compiler name stops being the user's: SSA's version (`__ssa_v0`, `__idx_v0`) or
# tensor-to-tile's `__tile`, and whatever the compiler appended after it (`_mat`, `_t`, `_Left`).
_COMPILER_MARK = re.compile(r"__(?:tile|(?:[a-z]+_)*v\d+)(?![A-Za-z0-9])")


def source_variable(compiled_name: str) -> str:
    """The user's variable a compiled value was made from: `q__ssa_v0_mat` (the Mat load
    inserted for the parameter `q`) -> `q`, `k_blk__tile_t` (its transposed view) -> `k_blk`,
    `x_k__ssa_v1` -> `x_k`."""
    m = _COMPILER_MARK.search(compiled_name)
    return compiled_name[:m.start()] if m is not None and m.start() > 0 else user_name(compiled_name)
