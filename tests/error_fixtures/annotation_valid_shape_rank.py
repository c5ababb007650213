import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        x: pl.Tile[[64, 64], pl.FP32, pl.TileView(valid_shape=[48])] = pl.load(a, [0, 0], [64, 64])  # error: valid_shape has 1 dims but the tile has rank 2
        out = pl.store(x, [0, 0], out)
        return out
