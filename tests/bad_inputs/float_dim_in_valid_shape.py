import pl


@pl.program
class FloatValid:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 128], pl.FP32],
               out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 128], valid_shape=[16, 64.0])  # error: tuple of integers
        out = pl.store(a, [0, 0], out)
        return out
