import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16], pl.INT32]) -> pl.Tensor[[16], pl.INT32]:
        arr = pl.array.create(4, dtype=pl.INT32)
        arr[0] = 1
        v = arr[0, 1]  # error: An array is indexed by one integer
        return x
