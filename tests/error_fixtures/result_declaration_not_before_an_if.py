import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        t: pl.Tile[[64, 64], pl.FP32]  # error: 't: ...' without a value must stand right before an if that yields 't'
        t = pl.load(a, [0, 0], [64, 64])
        out = pl.store(t, [0, 0], out)
        return out
