import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[ROWS, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:  # error: ROWS
        return a
