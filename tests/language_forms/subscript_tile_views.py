import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(x, [0, 0], [16, 16])
        left = t[:, 0:8]  # a [16, 8] view of the tile
        right = t[:, 8:]
        row = t[m]  # one row: tiles stay 2-D, so a [1, 16] view
        e = t[m, 15]  # an element
        t[:, 0:8] = pl.add(left, right)  # rebinds t to the assembled tile
        t[0] = pl.mul(row, e)  # the [1, 16] row fits the row window as it is
        out = pl.store(t, [0, 0], out)
        return out
