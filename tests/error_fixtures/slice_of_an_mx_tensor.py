import pl


@pl.program
class P:
    @pl.function
    def kernel(self, source: pl.Tensor[[16, 8], pl.FP8E8M0, pl.MX_A_ZZ]) -> pl.Tensor[[16, 8], pl.FP8E8M0, pl.MX_A_ZZ]:
        sliced = pl.slice(source, [8, 8], [1, 0])  # error: tensor.slice does not support MX-layout tensors  # error-col: 27
        return source
