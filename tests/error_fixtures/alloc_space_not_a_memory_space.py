import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        buf: pl.Ptr = pl.tile.alloc(pl.FP32, 1024)  # error: must be a memory space such as pl.Mem.Vec
        return x
