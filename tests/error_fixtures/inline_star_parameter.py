import pl


@pl.inline
def spread(*ts):  # error: Inline function 'spread' may only have plain parameters  # error-col: 5
    return ts


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16], pl.FP32], out: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        t = pl.load(x, [0], [16])
        out = pl.store(t, [0], out)
        return out
