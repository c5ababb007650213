"""The phase-4 hook of memory-space inference, and its "residency off" form.

Guarantees: `strip_bridge_markers(program, backend)` removes the private Call attr
`__compiler_tensor_to_tile_mat_bridge` from every Call of every function (other attrs kept) and
normalises the bodies of InCore/AIC/AIV functions (nested SeqStmts flattened, one-statement blocks
unwrapped); it hoists nothing and so reports no residency decisions. It is what phase 4 does when
residency is switched off; `infer.residency.apply_residency` has the same signature.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from pl.infer.residency.ir import BRIDGE_MARKER, strip_and_normalise
from pl.ir.function import Program

__all__ = ["BRIDGE_MARKER", "Residency", "strip_bridge_markers"]

# Phase 4 signature: (program, backend) -> (program, residency decisions).
Residency = Callable[[Program, "str | None"], tuple[Program, Sequence[Any]]]


def strip_bridge_markers(program: Program, backend: str | None = None
                         ) -> tuple[Program, tuple[Any, ...]]:
    del backend  # nothing is hoisted here
    funcs = tuple(strip_and_normalise(f, f.func_type.is_incore_kind()) for f in program.functions)
    return replace(program, functions=funcs), ()
