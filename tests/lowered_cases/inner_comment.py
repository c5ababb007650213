import pl


@pl.program
class InnerComment:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        y = pl.exp(x)
        out = (
            # a comment inside the statement's expression: kept before what it compiles to
            pl.assemble(out, y, [0, 0])
        )
        return out
