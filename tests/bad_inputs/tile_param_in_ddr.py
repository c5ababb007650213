import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.DDR], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:  # error: is in DDR, but a tile is an on-chip buffer
        s = pl.add(a, a)
        r = pl.store(s, [0, 0], out)
        return r
