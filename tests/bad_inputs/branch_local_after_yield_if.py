import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        if n > 0:
            t = pl.add(a, a)
            r = pl.yield_(t)
        else:
            r = pl.yield_(a)
        return t  # error: Undefined variable 't'
