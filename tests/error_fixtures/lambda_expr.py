import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        g = lambda v: v  # error: Unsupported expression type: Lambda  # error-col: 13
        return a
