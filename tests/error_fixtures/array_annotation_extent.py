import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16], pl.INT32]) -> pl.Tensor[[16], pl.INT32]:
        arr: pl.Array[0, pl.INT32] = pl.array.create(4, dtype=pl.INT32)  # error: An array's extent must be a positive compile-time int
        return x
