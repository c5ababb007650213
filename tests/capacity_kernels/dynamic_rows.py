"""A tile with a dynamic number of rows beside 192 KiB of static Vec tiles: the static part alone
exceeds Vec on 910B, so the total is at least that (a lower bound)."""

import pl

M = pl.dynamic("M")


@pl.program
class DynamicRows:
    @pl.function(type=pl.FunctionType.InCore)
    def blend(self, x: pl.Tensor[[128, 128], pl.FP32], y: pl.Tensor[[M, 128], pl.FP32],
              echo: pl.Out[pl.Tensor[[M, 128], pl.FP32]],
              out: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        rows = pl.load(y, [0, 0], [M, 128])
        pl.store(rows, [0, 0], echo)
        a = pl.load(x, [0, 0], [128, 128])
        b = pl.exp(a)
        c = pl.add(a, b)
        out = pl.store(c, [0, 0], out)
        return out
