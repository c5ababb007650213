"""A pop is printed as `pl.tile.tpop_from_aic(split=0)` with its type in the annotation (the
reference prints it so): reading it back, the call takes the annotation's type."""

import pl


@pl.program
class Pop:
    @pl.function(type=pl.FunctionType.AIV)
    def consumer(self, out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.tile.tpop_from_aic(shape=[16, 16], dtype=pl.FP32, split=0)
        out = pl.store(t, [0, 0], out)
        return out
