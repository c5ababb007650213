import pl


@pl.inline
def count(n):
    return n + 1


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16], pl.FP32], out: pl.Out[pl.Tensor[[16], pl.FP32]],
          n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16], pl.FP32]:
        t = pl.load(x, [0], [16])
        i = 0
        # A while's condition is evaluated before every iteration: an inline body cannot run
        # there (in an if's condition or a pl.range bound it runs once, before the statement).
        while i < count(n):  # error: Inline function 'count' cannot be called in the header  # error-col: 19
            t = pl.add(t, t)
            i = i + 1
        out = pl.store(t, [0], out)
        return out
