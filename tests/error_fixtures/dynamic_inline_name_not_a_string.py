import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(self, x: pl.Tensor[[pl.dynamic(4), 16], pl.FP32]) -> pl.Tensor[[pl.dynamic(4), 16], pl.FP32]:  # error: pl.dynamic in a shape takes one string literal  # error-col: 36
        return x
