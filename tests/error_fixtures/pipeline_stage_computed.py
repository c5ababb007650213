import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16, 16], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        for i in pl.pipeline(4, stage=n):  # error: pl.pipeline's stage must be an integer literal
            x = pl.add(x, 1.0)
        return x
