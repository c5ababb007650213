import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        k = n << 1.5  # error: a shift takes integers, but this operand is FP32  # error-col: 18
        return a
