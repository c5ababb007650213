import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        for i, (x,) in pl.range(4, init_values=(a,)):
            pl.yield_(x)  # error: requires an assignment-form pl.yield_  # error-col: 13
        return a
