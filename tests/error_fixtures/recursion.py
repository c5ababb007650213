import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        b = self.f(a)  # error: Recursive call of function 'f'  # error-col: 13
        return b
