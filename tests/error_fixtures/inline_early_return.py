import pl


@pl.inline
def pick(t, n):
    if n > 0:
        return t  # error: Inline function 'pick' may return only as its last statement  # error-col: 9
    return pl.add(t, t)


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16], pl.FP32], out: pl.Out[pl.Tensor[[16], pl.FP32]],
          n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16], pl.FP32]:
        t = pl.load(x, [0], [16])
        d = pick(t, n)
        out = pl.store(d, [0], out)
        return out
