import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64, -1], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:  # error: Dimension must be a positive integer, got -1
        return a
