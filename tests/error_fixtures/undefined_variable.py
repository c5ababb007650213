import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        s = pl.add(a, bias)  # error: Undefined variable 'bias'  # error-col: 23
        return s
