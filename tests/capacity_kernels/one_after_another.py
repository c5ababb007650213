"""Three 64 KiB Vec tiles used one after another: each is stored before the next is loaded, so at
most one is live (64 KiB), although all three add up to 192 KiB, more than Vec on 910B (184 KiB)."""

import pl


@pl.program
class OneAfterAnother:
    @pl.function(type=pl.FunctionType.InCore)
    def copy3(self, x: pl.Tensor[[384, 128], pl.FP32],
              out: pl.Out[pl.Tensor[[384, 128], pl.FP32]]) -> pl.Tensor[[384, 128], pl.FP32]:
        a = pl.load(x, [0, 0], [128, 128])
        out = pl.store(a, [0, 0], out)
        b = pl.load(x, [128, 0], [128, 128])
        out = pl.store(b, [128, 0], out)
        c = pl.load(x, [256, 0], [128, 128])
        out = pl.store(c, [256, 0], out)
        return out
