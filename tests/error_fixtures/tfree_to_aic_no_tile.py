import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.AIV)
    def vec(self, a: pl.Tensor[[16, 128], pl.FP32]) -> pl.Tensor[[16, 128], pl.FP32]:
        pl.tfree_to_aic(split=0)  # error: pl.tfree_to_aic expects 1 positional argument(s), got 0  # error-col: 9
        return a
