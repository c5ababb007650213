import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[pl.FP32]) -> pl.Tensor[[64], pl.FP32]:  # error: pl.Tensor needs a shape and a dtype
        return a
