import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(
        self,
        a: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[None],  # error: pl.Out[...] takes a pl.Tensor, pl.Tile or pl.Scalar type  # error-col: 21
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 128])
        return t
