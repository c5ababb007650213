import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        for i in pl.range(4):
            r = pl.yield_(a)  # error: pl.yield_ in a loop needs init_values  # error-col: 13
        return a
