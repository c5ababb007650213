import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]], m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [64, 64])
        r: pl.Tile[[64, 64], pl.FP32]; s = pl.add(t, t)  # error: 'r: ...' without a value must stand right before an if that yields 'r'
        if m > 0:
            r = pl.yield_(s)
        else:
            r = pl.yield_(t)
        out = pl.store(r, [0, 0], out)
        return out
