import pl


@pl.program
class K:
    @pl.function
    def g(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        b = self.h(a)
        return b

    @pl.function
    def h(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        b = self.g(a)  # error: Recursive call
        return b
