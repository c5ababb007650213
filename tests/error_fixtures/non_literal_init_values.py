import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        for i, (x,) in pl.range(4, init_values=a):  # error: init_values must be a list or tuple literal  # error-col: 48
            r = pl.yield_(x)
        return r
