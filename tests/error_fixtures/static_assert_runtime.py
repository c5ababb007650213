import pl

N = 64


@pl.program
class K:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        pl.static_assert(n > 0)  # error: static_assert condition must be compile-time evaluable  # error-col: 26
        return n
