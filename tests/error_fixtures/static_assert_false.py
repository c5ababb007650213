import pl

N = 64


@pl.program
class K:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        pl.static_assert(1 == 2)  # error: static_assert failed  # error-col: 9
        return n
