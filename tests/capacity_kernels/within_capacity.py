"""Two 16 KiB Vec tiles: well within Vec on every backend."""

import pl


@pl.program
class WithinCapacity:
    @pl.function(type=pl.FunctionType.InCore)
    def double(self, x: pl.Tensor[[64, 64], pl.FP32],
               out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        a = pl.load(x, [0, 0], [64, 64])
        b = pl.add(a, a)
        out = pl.store(b, [0, 0], out)
        return out
