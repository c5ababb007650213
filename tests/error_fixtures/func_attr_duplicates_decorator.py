import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def f(self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]):  # error: Duplicate function attribute 'split': given by both
        pl.func_attr({"split": pl.SplitMode.LEFT_RIGHT})
        out[0:64] = x[0:64]
