"""@pl.program classes defined in the methods of a test class (`self` unbound), one after an
assignment static loading cannot tell (`np = pytest.importorskip("numpy")`), which no kernel
reads: the classes load statically, and the kernel that reads the name would be the error."""

import pytest

import pl


class TestScaling:
    def test_halving(self):
        np = pytest.importorskip("numpy")

        @pl.program
        class Halved:
            @pl.function(type=pl.FunctionType.InCore)
            def half(self, x: pl.Tensor[[8, 64], pl.FP16],
                     out: pl.Out[pl.Tensor[[8, 64], pl.FP16]]) -> pl.Tensor[[8, 64], pl.FP16]:
                t: pl.Tile[[8, 64], pl.FP16, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [8, 64])
                h: pl.Tile[[8, 64], pl.FP16, pl.MemorySpace.Vec] = pl.mul(t, 0.5)
                out = pl.store(h, [0, 0], out)
                return out

        assert np is not None and Halved is not None

    @staticmethod
    def build_negated():
        @pl.program
        class Negated:
            @pl.function(type=pl.FunctionType.InCore)
            def neg(self, x: pl.Tensor[[4, 32], pl.FP32],
                    out: pl.Out[pl.Tensor[[4, 32], pl.FP32]]) -> pl.Tensor[[4, 32], pl.FP32]:
                t: pl.Tile[[4, 32], pl.FP32, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [4, 32])
                n: pl.Tile[[4, 32], pl.FP32, pl.MemorySpace.Vec] = pl.neg(t)
                out = pl.store(n, [0, 0], out)
                return out

        return Negated
