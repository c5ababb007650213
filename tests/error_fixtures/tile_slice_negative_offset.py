import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 64])
        s = pl.tile.slice(t, [8, 32], [0, -1])  # error: tile.slice offset 1 is provably negative (-1)
        out = pl.store(t, [0, 0], out)
        return out
