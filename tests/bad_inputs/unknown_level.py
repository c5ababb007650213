import pl


@pl.program
class K:
    @pl.function(level=pl.Level.NOPE)  # error: NOPE
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return a
