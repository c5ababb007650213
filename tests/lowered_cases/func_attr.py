import pl


@pl.program
class FuncAttr:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        # The function's attributes are the function's, not a statement's: they stay first.
        pl.func_attr({"split_aiv": True, "split": pl.SplitMode.UP_DOWN})
        y = pl.exp(x)
        out = pl.assemble(out, y, [0, 0])
        return out
