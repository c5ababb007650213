import pl


@pl.program
class Pop:
    @pl.function(type=pl.FunctionType.AIV)
    def consumer(self, out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.tile.tpop_from_aic(shape=[0.5, 16], dtype=pl.FP32, split=0)  # error: pl.tile.tpop_from_aic: shape= must be a list of integers, got [0.5, 16]
        out = pl.store(t, [0, 0], out)
        return out
