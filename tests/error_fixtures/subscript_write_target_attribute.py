import pl


@pl.program
class K:
    @pl.function
    def f(self, x: pl.Tensor[[64, 128], pl.FP32]) -> pl.Tensor[[64, 128], pl.FP32]:
        self.buf[0:16, :] = x  # error: Subscript-write target must be a variable name, got self.buf
        return x
