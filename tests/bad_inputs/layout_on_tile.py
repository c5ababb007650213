import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        x = pl.load(a, [0, 0], [64, 64])
        y: pl.Tile[[64, 64], pl.FP32, pl.NZ] = pl.add(x, x)  # error: Tensor layouts are not allowed on pl.Tile
        out = pl.store(x, [0, 0], out)
        return out
