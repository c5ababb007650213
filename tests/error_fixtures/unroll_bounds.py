import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        for i in pl.unroll(n):  # error: pl.unroll needs integer-literal bounds  # error-col: 18
            a = pl.add(a, a)
        return a
