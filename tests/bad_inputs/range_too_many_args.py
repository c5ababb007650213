import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        for i in pl.range(0, 4, 1, 2):  # error: pl.range takes 1 to 3 positional arguments
            a = pl.add(a, a)
        return a
