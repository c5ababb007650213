import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]):
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
        pl.func_attr({"split": pl.SplitMode.LEFT_RIGHT})  # error: Duplicate function attribute 'split'
        out[0:64] = x[0:64]
