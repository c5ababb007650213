import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16], pl.INT32]) -> pl.Tensor[[16], pl.INT32]:
        arr = pl.array.create(4, dtype=pl.INT32)
        arr[4] = 1  # error: index 4 is out of range for an array of 4 elements
        return x
