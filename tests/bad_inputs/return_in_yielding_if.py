import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        if n > 0:
            b = pl.add(a, 1.0)
            if n == 2:
                return b  # error: 'return' inside an if whose branches yield values
            p = pl.yield_(b)
        else:
            p = pl.yield_(a)
        return p
