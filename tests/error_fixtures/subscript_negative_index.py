import pl


@pl.program
class K:
    @pl.function
    def f(self, x: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y = x[-1]  # error: tensor.slice offset 0 is provably negative (-1)
        return y
