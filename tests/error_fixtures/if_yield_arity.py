import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        if n > 0:
            r = pl.yield_(a)
        else:
            r, s = pl.yield_(a, a)  # error: Both branches of an if must yield the same number  # error-col: 13
        return r
