import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[0, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:  # error: Dimension must be a positive integer, got 0  # error-col: 31
        return a
