import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        x = pl.load(a, [0, 0], [64, 64])
        y = pl.tile.set_validshape(x, 0.5, 14)  # error: The operator tile.set_validshape requires integer dims, but got [0.5, 14]
        out = pl.store(y, [0, 0], out)
        return out
