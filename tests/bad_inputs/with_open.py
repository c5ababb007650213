import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        with open('x') as fh:  # error: Unsupported context manager
            a = pl.add(a, a)
        return a
