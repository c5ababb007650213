import pl

ROWS = 4


@pl.program
class HeaderInnerComment:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        for i in pl.range(
            ROWS * 4,  # a comment inside the loop's header: kept before the loop
        ):
            t = pl.exp(x[0:4, 0:64])
            out[i * 4 : i * 4 + 4, 0:64] = t
        return out
