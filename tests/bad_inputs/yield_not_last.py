import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        if n > 0:
            r = pl.yield_(a)  # error: pl.yield_
            b = pl.add(a, a)
        else:
            r = pl.yield_(a)
        return r
