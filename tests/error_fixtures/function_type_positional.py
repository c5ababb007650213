import pl

N = 64


@pl.program
class K:
    @pl.function(pl.FunctionType.InCore)  # error: @pl.function takes its options as keywords  # error-col: 18
    def f(self, a: pl.Tensor[[16, 128], pl.FP32], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 128])

        out = pl.store(t, [0, 0], out)
        return out
