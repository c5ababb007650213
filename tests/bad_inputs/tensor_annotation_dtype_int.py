import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], 64]) -> pl.Tensor[[64], pl.FP32]:  # error: Expected a dtype
        return a
