import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.AIV)
    def vec(self, a: pl.Tensor[[16, 128], pl.FP32]) -> pl.Tensor[[16, 128], pl.FP32]:
        buf = pl.reserve_buffer(name="c2v", size=4096, slots=2)  # error: pl.reserve_buffer: unknown keyword argument 'slots'
        return a
