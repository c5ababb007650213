import pl

N = 64


@pl.program
class K:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        pl.static_assert(N > 0, N)  # error: message must be a string literal  # error-col: 33
        return n
