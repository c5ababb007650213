import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16], pl.INT32]) -> pl.Tensor[[16], pl.INT32]:
        arr: pl.Array[8, pl.INT32] = pl.array.create(4, dtype=pl.INT32)  # error: has extent 8 but expression has extent 4
        return x
