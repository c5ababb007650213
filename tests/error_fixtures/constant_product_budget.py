import pl

ROW = [0] * 4096
TABLE = [ROW] * 4096  # error: more than 65536 items in all


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        b = TABLE
        return a
