import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        try:  # error: Unsupported statement type: Try  # error-col: 9
            a = pl.add(a, a)
        except ValueError:
            pass
        return a
