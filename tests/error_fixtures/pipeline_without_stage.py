import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        for i in pl.pipeline(8):  # error: pl.pipeline() requires stage=  # error-col: 18
            a = pl.add(a, a)
        return a
