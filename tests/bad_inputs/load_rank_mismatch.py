import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        x = pl.load(a, [0, 0], [64, 64])
        y = pl.load(a, [0], [64, 64])  # error: the same number of dimensions
        out = pl.store(x, [0, 0], out)
        return out
