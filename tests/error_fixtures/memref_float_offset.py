import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        buf: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        t: pl.Tile[[16, 16], pl.FP32, pl.MemRef(buf, 1.5, 1024), pl.Mem.Vec] = pl.load(x, [0, 0], [16, 16])  # error: byte offset must be an integer
        return pl.store(t, [0, 0], x)
