import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.AIV)
    def f(self, a: pl.Out[pl.Tile[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:  # error: take tensors; parameter 'a'
        return a
