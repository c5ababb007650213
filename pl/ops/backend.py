"""A backend named by the user: the one check of the name, and the facts passes read by name.

Guarantees: `backend(name)` is the record of `pl.ir.target.BACKENDS` (None for None) or one PlError
naming every backend the table has; `input_layouts` (the op record's layout column, on a
backend with layout needs) / `capacity` read that record and are empty / 0
without a backend, so a pass run without one never adds layout kwargs (pass.md decision 3).
"""

from __future__ import annotations

from pl.errors import PlError
from pl.ir.enums import MemorySpace, TileLayout
from pl.ir.target import BACKENDS, Backend
from pl.ops.registry import get_op


def backend(name: str | None) -> Backend | None:
    """The backend called `name` (None for None); an unknown name is a PlError."""
    if name is None:
        return None
    found = BACKENDS.get(name)
    if found is None:
        choices = ", ".join(f'"{b.name}" ({b.chip})' for b in BACKENDS.values())
        raise PlError(f"unknown backend {name!r}", hint=f"use None or one of {choices}")
    return found


def check_backend(name: str | None) -> None:
    """Raise the PlError of `backend` for a name no backend has."""
    backend(name)


def input_layouts(name: str | None, op_name: str) -> dict[int, TileLayout]:
    """The layout each input slot of `op_name` must have on this backend ({} when none)."""
    b = backend(name)
    record = get_op(op_name)
    if b is None or not b.layout_needs or record is None:
        return {}
    return dict.fromkeys(record.row_major_inputs, TileLayout.row_major)


def capacity(name: str | None, space: MemorySpace) -> int:
    """Bytes available in `space` on this backend (0 = no backend / unknown / unchecked)."""
    b = backend(name)
    return 0 if b is None else b.capacity(space)
