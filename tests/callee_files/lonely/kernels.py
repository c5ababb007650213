"""A kernel no entry of its folder calls: shown only for the shapes --shape gives."""

import pl


@pl.jit.incore
def doubled(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    rows, cols = x.shape
    t = pl.load(x, [0, 0], [rows, cols])
    d = pl.add(t, t)
    pl.store(d, [0, 0], out)
    return out
