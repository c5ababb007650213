"""A tile with a dynamic number of rows beside one 16 KiB tile: its size is unknown, but nothing
known exceeds a capacity, so there is no warning."""

import pl

M = pl.dynamic("M")


@pl.program
class DynamicWithin:
    @pl.function(type=pl.FunctionType.InCore)
    def copy(self, y: pl.Tensor[[M, 128], pl.FP32], x: pl.Tensor[[64, 64], pl.FP32],
             echo: pl.Out[pl.Tensor[[M, 128], pl.FP32]],
             out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        rows = pl.load(y, [0, 0], [M, 128])
        pl.store(rows, [0, 0], echo)
        a = pl.load(x, [0, 0], [64, 64])
        out = pl.store(a, [0, 0], out)
        return out
