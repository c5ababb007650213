import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16], pl.INT32]) -> pl.Tensor[[16], pl.INT32]:
        arr = pl.array.create(4, dtype=pl.INT32)
        arr[0] = 2.5  # error: the value's dtype pl.FP32 is not the array's element dtype pl.INT32
        return x
