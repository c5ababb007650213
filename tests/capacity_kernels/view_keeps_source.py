"""A view shares its source's buffer: `flat` (a reshape of the 64 KiB Vec tile `a`) keeps `a` live
to its own last use, where two more 64 KiB tiles are live: 192 KiB at once, more than Vec on
910B (184 KiB)."""

import pl


@pl.program
class ViewKeepsSource:
    @pl.function(type=pl.FunctionType.InCore)
    def blend(self, x: pl.Tensor[[128, 128], pl.FP32], y: pl.Tensor[[64, 256], pl.FP32],
              out: pl.Out[pl.Tensor[[64, 256], pl.FP32]]) -> pl.Tensor[[64, 256], pl.FP32]:
        a = pl.load(x, [0, 0], [128, 128])
        flat = pl.reshape(a, [64, 256])
        b = pl.load(y, [0, 0], [64, 256])
        c = pl.add(flat, b)
        out = pl.store(c, [0, 0], out)
        return out
