import pl

BIAS = 1.0


@pl.inline
def shifted(t):
    # a helper of one tile statement; the constant comes from this module
    s = pl.add(t, BIAS)
    return s


@pl.inline
def twice_then(t, k):
    # rebinding a parameter rebinds the helper's own name, never the caller's
    t = pl.mul(t, 2.0)
    return shifted(t), pl.mul(t, k)


@pl.inline
def looped(t, n):
    for _i, (acc,) in pl.range(n, init_values=(t,)):
        nxt = pl.add(acc, acc)
        acc_out = pl.yield_(nxt)
    return acc_out


@pl.inline
def store_into(t, out):
    out = pl.store(t, [0, 0], out)


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(x, [0, 0], [16, 16])
        a, b = twice_then(t, 3.0)
        if m > 2:
            c = pl.yield_(shifted(a))
        else:
            c = pl.yield_(looped(b, 2))
        d = pl.sub(shifted(c), t)
        store_into(d, out)
        out = pl.store(d, [0, 0], out)
        return out
