"""The ops with a bespoke DSL surface (pl/ops/surface.py) are one table both the frontend and the
printer read (issue 34 item 8): each entry is a registered op, and each is written in a kernel
the round-trip suites print and read back (tests/test_spelling_kernels.py,
tests/test_round_trip.py, tests/test_language_forms.py), so both of its directions are checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from pl.language.dsl_ops import spelling_index
from pl.ops.registry import KWARG_TYPES, all_ops
from pl.ops.surface import SURFACES

ROOT = Path(__file__).resolve().parent
ROUND_TRIPPED = ("spelling_kernels", "round_trip_kernels", "language_forms")


def _written() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for d in ROUND_TRIPPED
                     for p in sorted((ROOT / d).glob("*.py")))


@pytest.mark.parametrize("name", sorted(SURFACES))
def test_each_surface_is_a_registered_op_written_in_a_round_tripped_kernel(name: str) -> None:
    assert name in all_ops()
    spellings = [s for s, ops in spelling_index().items() if name in ops]
    text = _written()
    assert any(s + "(" in text for s in spellings), \
        f"no kernel of {ROUND_TRIPPED} writes {name}: add one for its bespoke surface"


def test_attr_stored_kwargs_are_written_in_a_round_tripped_kernel() -> None:
    text = _written()
    attr_ops = [n for n, op in all_ops().items()
                if any(KWARG_TYPES[k.type_name].attr for k in op.kwargs)]
    assert attr_ops == ["system.task_dummy"]
    assert "pl.system.task_dummy(deps=[" in text
