import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        x, y = pl.add(a, a)  # error: Cannot unpack 1 value(s) into 2 names
        return a
