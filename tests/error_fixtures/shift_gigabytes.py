import pl

N = 64


@pl.program
class K:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        x = 1 << 3000000000  # error: Shift by 3000000000 does not fit in 64 bits  # error-col: 13
        return n
