import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        k = ~1.5  # error: '~' takes an integer, but its operand is FP32
        return a
