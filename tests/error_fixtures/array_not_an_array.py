import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16], pl.INT32]) -> pl.Tensor[[16], pl.INT32]:
        v = pl.array.get_element(x, 0)  # error: requires the first argument to be an Array
        return x
