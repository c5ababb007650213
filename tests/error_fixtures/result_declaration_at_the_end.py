import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]], m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [64, 64])
        if m > 0:
            out = pl.store(t, [0, 0], out)
            s: pl.Tile[[64, 64], pl.FP32]  # error: 's: ...' without a value must stand right before an if that yields 's'
        return out
