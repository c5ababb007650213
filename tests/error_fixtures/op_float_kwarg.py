import pl

N = 64


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 128], pl.FP32], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 128])
        x = pl.cast(t, pl.FP16, mode=2.5)  # error: mode must be an integer constant, got the constant 2.5  # error-col: 33
        out = pl.store(t, [0, 0], out)
        return out
