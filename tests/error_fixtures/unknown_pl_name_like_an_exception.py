import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[64], pl.PlErr]) -> pl.Tensor[[64], pl.FP32]:  # error: Unknown name 'pl.PlErr'
        t = pl.load(x, [0], [64])
        return t
