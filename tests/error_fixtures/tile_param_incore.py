import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tile[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:  # error: InCore functions take tensors;  # error-col: 20
        return a
