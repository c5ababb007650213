"""The footprint rule (pl/infer/footprint.py) on compiled kernels: owners, views, 32-byte layout,
dynamic shapes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from kernel_strategies import matmul_programs, tile_programs

import pl
from pl.errors import PlError
from pl.infer.footprint import ALIGN, function_footprint, peak_live_bytes, tile_bytes
from pl.ir.enums import DType, MemorySpace
from pl.ir.expr import ConstInt, Var
from pl.ir.types import ScalarType, TileType

SEED = '''
import pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 128], pl.BF16], y: pl.Tensor[[128, 128], pl.BF16],
          out_0: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        x_tile: pl.Tile[[16, 128], pl.BF16] = pl.load(x, [0, 0], [16, 128])
        y_tile: pl.Tile[[128, 128], pl.BF16] = pl.load(y, [0, 0], [128, 128])
        z_tile: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_tile, y_tile)
        out_0: pl.Tensor[[16, 128], pl.FP32] = pl.store(z_tile, [0, 0], out_0)
        return out_0
'''

ODD = '''
import pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[3, 5], pl.FP16], out_0: pl.Out[pl.Tensor[[3, 5], pl.FP16]]
          ) -> pl.Tensor[[3, 5], pl.FP16]:
        a: pl.Tile[[3, 5], pl.FP16] = pl.load(x, [0, 0], [3, 5])
        b: pl.Tile[[3, 5], pl.FP16] = pl.add(a, a)
        c: pl.Tile[[3, 5], pl.FP16] = pl.mul(b, a)
        out_0: pl.Tensor[[3, 5], pl.FP16] = pl.store(c, [0, 0], out_0)
        return out_0
'''


def _footprint(text: str):  # type: ignore[no-untyped-def]
    compiled = pl.compile(pl.parse(text), backend="910B")
    (func,) = [f for f in compiled.program.functions if f.name == "k"]
    return function_footprint(func)


def test_each_owner_counts_once_in_its_space() -> None:
    fp = _footprint(SEED)
    sizes = {space: [size for _, size in s.owners] for space, s in fp.spaces.items()}
    # The Vec loads are moved to Left / Right; the matmul result lives in Acc.
    assert sizes[MemorySpace.Acc] == [16 * 128 * 4]
    assert fp.bytes_in(MemorySpace.Left) == 16 * 128 * 2
    assert fp.bytes_in(MemorySpace.Right) == 128 * 128 * 2
    assert fp.bytes_in(MemorySpace.Bias) == 0
    assert not any(s.unknown for s in fp.spaces.values())


def test_owners_are_laid_out_at_32_byte_boundaries() -> None:
    fp = _footprint(ODD)
    vec = fp.spaces[MemorySpace.Vec]
    assert [size for _, size in vec.owners] == [30, 30, 30]
    assert vec.bytes == 32 + 32 + 32      # each 30-byte buffer ends on the next boundary


def test_packed_and_dynamic_sizes() -> None:
    n = Var("n", ScalarType(DType.INDEX))
    assert tile_bytes(TileType((ConstInt(3), ConstInt(5)), DType.INT4)) == 8
    assert tile_bytes(TileType((ConstInt(4), n), DType.FP32)) is None


# -- the peak of live bytes against the whole-function footprint, on generated programs ---------
@pytest.mark.parametrize("family", ["tile", "matmul"])
@settings(max_examples=12, derandomize=True, database=None, deadline=None,
          phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_the_peak_is_within_the_footprint(family: str, data: st.DataObject) -> None:
    """Per space, the peak of live bytes is at most the whole-function footprint (the same owners
    at the same sizes, only those live together added) and at least the biggest owner (a tile is
    live where it is defined)."""
    g = data.draw(tile_programs() if family == "tile" else matmul_programs(), label=family)
    try:
        compiled = pl.compile(pl.parse(g.source), backend="910B")
    except PlError:
        return  # a user-facing diagnostic is an allowed outcome (tests/test_properties.py)
    for func in compiled.program.functions:
        fp = function_footprint(func)
        peaks = peak_live_bytes(func)
        assert set(peaks) == set(fp.spaces)
        for space, peak in peaks.items():
            biggest = max((-(-size // ALIGN) * ALIGN for _, size in fp.spaces[space].owners
                           if size is not None), default=0)
            assert biggest <= peak.bytes <= fp.bytes_in(space), (space, g.source)
            assert {v for v, _ in peak.owners} <= {v for v, _ in fp.spaces[space].owners}
