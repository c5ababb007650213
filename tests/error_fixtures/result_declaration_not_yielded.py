import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]], m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [64, 64])
        u: pl.Tile[[64, 64], pl.FP32]  # error: 'u: ...' without a value types a result of the if right after it, but that if yields no 'u'
        if m > 0:
            s = pl.add(t, t)
            r = pl.yield_(s)
        else:
            r = pl.yield_(t)
        out = pl.store(r, [0, 0], out)
        return out
