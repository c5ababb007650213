import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        for i, (x, y) in pl.range(4, init_values=(a,)):  # error: Mismatch: 2 iter_args but 1 init_values
            r = pl.yield_(x)
        return r
