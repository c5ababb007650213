import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Ptr = pl.load(x, [0, 0], [16, 16])  # error: Type annotation for 't' is pl.Ptr but expression is pl.Tile
        return pl.store(t, [0, 0], x)
