import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[1:2, pl.FP32]) -> pl.Tensor[[64], pl.FP32]:  # error: A slice cannot be part of a type annotation  # error-col: 30
        return a
