import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        for i, (x,) in pl.range(4, init_values=(a,)):
            r, s = pl.yield_(x, x)  # error: gives 2 value(s) but the loop carries 1
        return r
