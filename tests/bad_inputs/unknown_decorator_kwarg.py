import pl


@pl.program
class K:
    @pl.function(typ=pl.FunctionType.InCore)  # error: Unknown @pl.function argument 'typ'
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return a
