import pl


@pl.program
class K:
    @pl.function(attrs={1: 2})  # error: @pl.function(attrs=...) keys must be string literals  # error-col: 25
    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        return n
