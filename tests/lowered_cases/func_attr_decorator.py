import pl


@pl.program
class FuncAttrDecorator:
    # Attributes given by the decorator stay there (no pl.func_attr line is added for them).
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        y = pl.exp(x)
        out = pl.assemble(out, y, [0, 0])
        return out
