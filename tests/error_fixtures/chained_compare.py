import pl


@pl.program
class K:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX], a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        if 0 < n < 4:  # error: Chained comparisons are not supported  # error-col: 12
            a = pl.add(a, a)
        return a
