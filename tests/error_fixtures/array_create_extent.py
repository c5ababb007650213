import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16], pl.INT32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16], pl.INT32]:
        arr = pl.array.create(n, dtype=pl.INT32)  # error: An array's extent must be a positive compile-time int
        return x
