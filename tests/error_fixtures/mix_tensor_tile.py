import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        x = pl.load(a, [0, 0], [64, 64])
        y = pl.add(a, x)  # error: cannot mix Tensor and Tile  # error-col: 13
        out = pl.store(y, [0, 0], out)
        return out
