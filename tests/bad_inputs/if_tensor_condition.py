import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        if a:  # error: if condition must be a Bool-typed scalar expression, got pl.Tensor
            a = pl.add(a, a)
        return a
