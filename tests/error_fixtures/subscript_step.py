import pl


@pl.program
class K:
    @pl.function
    def f(self, x: pl.Tensor[[64, 128], pl.FP32]) -> pl.Tensor[[8, 128], pl.FP32]:
        y = x[0:16:2, :]  # error: Slice step is not supported in tensor subscript
        return y
