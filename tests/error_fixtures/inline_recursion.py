import pl


@pl.inline
def ping(t):
    return pong(t)


@pl.inline
def pong(t):
    return ping(t)  # error: Inline function 'ping' calls itself: ping -> pong -> ping  # error-col: 12


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16], pl.FP32], out: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        t = pl.load(x, [0], [16])
        d = ping(t)
        out = pl.store(d, [0], out)
        return out
