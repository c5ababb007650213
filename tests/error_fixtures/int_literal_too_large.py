import pl

N = 64


@pl.program
class K:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        x = n + 99999999999999999999999  # error: does not fit in 64 bits  # error-col: 17
        return n
