import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 128], pl.FP32], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        x = pl.load(a, [0, 0], [0, 128])  # error: every extent must be positive, got 0  # error-col: 32
        out = pl.store(x, [0, 0], out)
        return out
