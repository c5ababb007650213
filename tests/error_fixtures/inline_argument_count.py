import pl


@pl.inline
def double(t):
    return pl.add(t, t)


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16], pl.FP32], out: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        t = pl.load(x, [0], [16])
        d = double(t, t)  # error: Inline function 'double' expects 1 argument(s), got 2  # error-col: 13
        out = pl.store(d, [0], out)
        return out
