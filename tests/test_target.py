"""The target tables (pl/ir/target.py) are complete, and every list of spaces or backends is theirs.

- every MemorySpace member has one space record, and the stubs spell a marker class for each;
- every backend's capacities name spaces, its L0 sizes are its Left / Right / Acc capacities;
- `pl show-inferred --backend` offers exactly the table's names (and `none`), and the one error
  for an unknown name lists them all, whichever entry point reads it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import pl
from pl.errors import PlError
from pl.ir.enums import MemorySpace
from pl.ir.target import BACKENDS, DEFAULT_BACKEND, SPACES
from pl.show_inferred.cli import _BACKENDS as CLI_BACKENDS

STUB_CORE = Path(__file__).resolve().parent.parent / "stubs" / "pl" / "_core.pyi"


def test_every_space_has_one_record() -> None:
    assert list(SPACES) == list(MemorySpace)


def test_the_stubs_spell_a_marker_class_per_space() -> None:
    marks = re.findall(r"^class (\w+)\(SpaceMark\)", STUB_CORE.read_text(encoding="utf-8"), re.M)
    assert sorted(marks) == sorted(m.name for m in MemorySpace)


@pytest.mark.parametrize("name", list(BACKENDS))
def test_backend_record(name: str) -> None:
    b = BACKENDS[name]
    assert b.name == name and DEFAULT_BACKEND in BACKENDS
    assert all(isinstance(s, MemorySpace) and n > 0 for s, n in b.capacities.items())
    assert (b.l0a, b.l0b, b.l0c) == (b.capacity(MemorySpace.Left), b.capacity(MemorySpace.Right),
                                     b.capacity(MemorySpace.Acc))
    assert min(b.l0a, b.l0b, b.l0c) > 0


def test_cli_choices_are_the_table() -> None:
    assert set(CLI_BACKENDS) == {*BACKENDS, "none"}


@pytest.mark.parametrize("entry", [
    lambda: pl.passes.auto_tile_matmul_l0("a5"),
    lambda: pl.passes.infer_tile_memory_space("a5"),
    lambda: pl.compile(_program(), "a5"),
])
def test_unknown_backend_is_one_error(entry: object) -> None:
    assert callable(entry)
    with pytest.raises(PlError) as info:
        entry()
    assert info.value.message == "unknown backend 'a5'"
    assert all(f'"{n}"' in (info.value.hint or "") for n in BACKENDS)


def _program() -> pl.ir.Program:
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.InCore)
        def f(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
              ) -> pl.Tensor[[16, 16], pl.FP32]:
            t: pl.Tile[[16, 16], pl.FP32] = pl.load(x, [0, 0], [16, 16])
            return pl.store(t, [0, 0], out)

    return P
