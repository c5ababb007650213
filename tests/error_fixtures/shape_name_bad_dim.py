import pl

SHAPE = [64, 0]


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[SHAPE, pl.FP32]) -> pl.Tensor[[64], pl.FP32]:  # error: Shape element 0 is not a positive integer  # error-col: 30
        return a
