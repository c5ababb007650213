import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 128], pl.FP32], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        x = pl.load(a, [0, 0], [16, 128])
        y = pl.add(x, float("infinite"))  # error: float() cannot read 'infinite' as a number  # error-col: 29
        out = pl.store(y, [0, 0], out)
        return out
