import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        for i in range(4):  # error: For loop must use pl.range()  # error-col: 18
            a = pl.add(a, a)
        return a
