import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 128], pl.FP32], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        x = pl.load(a, [0, 0], [16, 128], valid_shape=[16, -9])  # error: every valid extent must be >= 0, got -9  # error-col: 55
        out = pl.store(x, [0, 0], out)
        return out
