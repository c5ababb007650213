import pl

N = 64


@pl.program
class K:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        pl.static_assert(N % 48 == 0, "N must be a multiple of 48")  # error: static_assert failed: N must be a multiple of 48  # error-col: 9
        return n
