import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.Incore)  # error: Unknown FunctionType 'Incore'  # error-col: 39
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return a
