import pl


@pl.program
class K:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        m = n ** 2  # error: Operator '**' is not supported  # error-col: 15
        return m
