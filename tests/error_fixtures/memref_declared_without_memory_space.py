import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32, pl.MemRef("scratch")] = pl.load(x, [0, 0], [16, 16])  # error: must also give its memory space
        return pl.store(t, [0, 0], x)
