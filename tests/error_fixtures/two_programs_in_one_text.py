import pl


@pl.program
class First:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return a


@pl.program
class Second:  # error: Multiple functions/programs found  # error-col: 7
    @pl.function
    def g(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return a
