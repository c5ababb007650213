import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16, 16], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        m = n * 2
        for i in pl.range(4, attrs={"k": m}):  # error: Unsupported value type for attrs key 'k'
            x = pl.add(x, 1.0)
        return x
