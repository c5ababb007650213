"""A kernel no entry of its folder calls: shown only for the shapes --shape gives."""

import pl


@pl.jit.incore
def doubled(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    rows, cols = x.shape
    t: pl.Tile[[8, 16], pl.FP16, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [rows, cols])
    d: pl.Tile[[8, 16], pl.FP16, pl.MemorySpace.Vec] = pl.add(t, t)
    pl.store(d, [0, 0], out)
    return out
