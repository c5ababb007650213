import pl


@pl.program
class K:
    @pl.function(type='InCore')  # error: type= must be a pl.FunctionType member
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return a
