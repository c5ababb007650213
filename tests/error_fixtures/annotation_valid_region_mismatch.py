import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        x = pl.load(a, [0, 0], [64, 64], valid_shape=[48, 64])
        t: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec, pl.TileView(valid_shape=[48, 0])] = pl.add(x, x)  # error: Type annotation for 't' has valid_shape [48, 0] but the expression's valid region is [48, 64]
        out = pl.store(t, [0, 0], out)
        return out
