import pl


@pl.program
class FloatDim:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 128], pl.FP32],
               out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 128.0])  # error: tuple of integers, but got [16, 128.0]
        out = pl.store(a, [0, 0], out)
        return out
