"""Three 64 KiB Vec tiles: each fits in Vec, together (192 KiB) they do not on 910B (184 KiB),
and do on 950 (240 KiB)."""

import pl


@pl.program
class TogetherTooBig:
    @pl.function(type=pl.FunctionType.InCore)
    def blend(self, x: pl.Tensor[[128, 128], pl.FP32],
              out: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        a = pl.load(x, [0, 0], [128, 128])
        b = pl.exp(a)
        c = pl.add(a, b)
        out = pl.store(c, [0, 0], out)
        return out
