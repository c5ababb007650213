import pl

SHAPE = [16, 16]
TILE = (16, 16)


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[SHAPE, pl.FP32], out: pl.Out[pl.Tensor[SHAPE, pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[SHAPE, pl.FP32]:
        t: pl.Tile[TILE, pl.FP32] = pl.load(x, [0, 0], TILE)
        t = pl.add(t, t)
        out = pl.store(t, [0, 0], out)
        return out
