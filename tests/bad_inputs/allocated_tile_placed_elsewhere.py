import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        mat: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 16384)
        x = pl.load(a, [0, 0], [64, 64])
        y: pl.Tile[[64, 64], pl.FP32, pl.MemRef(mat, 0, 16384), pl.Mem.Mat] = pl.add(x, x)  # error: allocated memory is never moved
        out = pl.store(y, [0, 0], out)
        return out
