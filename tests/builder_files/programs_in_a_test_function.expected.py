"""Two @pl.program classes a test function defines and then hands to pl's tools, as the reference's
pass tests do: the classes load statically, whatever the function does with them afterwards."""

import pl


def test_doubling_keeps_its_shape():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.InCore)
        def double(self, x: pl.Tensor[[16, 32], pl.FP32],
                   out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
            t: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [16, 32])
            d: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Vec] = pl.add(t, t)
            out = pl.store(d, [0, 0], out)
            return out

    @pl.program
    class Expected:
        @pl.function(type=pl.FunctionType.InCore)
        def double(self, x: pl.Tensor[[16, 32], pl.FP32],
                   out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
            t: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [16, 32])
            d: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Vec] = pl.mul(t, 2.0)
            out = pl.store(d, [0, 0], out)
            return out

    after = pl.compile(Before).program
    assert after is not None and Expected is not None
