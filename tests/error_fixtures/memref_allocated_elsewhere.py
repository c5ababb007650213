import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        buf: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 1024)
        t: pl.Tile[[16, 16], pl.FP32, pl.MemRef(buf, 0, 1024), pl.Mem.Mat] = pl.load(x, [0, 0], [16, 16])  # error: allocated memory is never moved
        return pl.store(t, [0, 0], x)
