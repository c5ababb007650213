import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        if n > 2:
            pl.yield_(a)  # error: pl.yield_ in an if needs the assignment form  # error-col: 13
        return a
