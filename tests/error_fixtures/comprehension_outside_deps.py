import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16], pl.FP32], out: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        t = pl.load(x, [0], [16])
        offsets = [i for i in range(2)]  # error: Unsupported expression type: ListComp  # error-col: 19
        out = pl.store(t, [0], out)
        return out
