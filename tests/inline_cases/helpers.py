"""Helpers another kernel file imports: an inline function and a module-level kernel."""

import pl

N = 16


@pl.inline
def softplus_like(t):
    # the parameter is rebound in a loop: each iteration reads the previous one's value
    for _i in pl.range(2):
        e = pl.exp(t)
        t = pl.add(e, 1.0)
    return t


@pl.function(type=pl.FunctionType.InCore)
def scale_kernel(x: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[N, N], pl.FP32]]) -> pl.Tensor[[N, N], pl.FP32]:
    t = pl.load(x, [0, 0], [N, N])
    y = pl.mul(t, 2.0)
    out = pl.store(y, [0, 0], out)
    return out
