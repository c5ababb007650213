import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        for i in pl.pipeline(8, stage=0):  # error: pl.pipeline() stage must be >= 1  # error-col: 39
            a = pl.add(a, a)
        return a
