import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        x: pl.Tile[[-4, 64], pl.FP32] = pl.load(a, [0, 0], [64, 64])  # error: Dimension must be a positive integer, got -4  # error-col: 21
        out = pl.store(x, [0, 0], out)
        return out
