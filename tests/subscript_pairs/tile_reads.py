import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[64, 128], pl.FP32], w: pl.Scalar[pl.INDEX],
          i: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 128], pl.FP32]:
        t = pl.load(x, [0, 0], [64, 128])
        part = pl.load(x, [0, 0], [64, 128], valid_shape=[64, w])
        a = t[0:16, :]  # a window of the tile
        b = t[:, :w]  # a dynamic upper bound: static [64, 128], valid [64, min(w, 128)]
        c = t[:, :256]  # a static upper bound is cut to the tile: [64, 128]
        d = t[:, 16:]  # from a constant lower bound to the end
        e = part[:, :]  # keeps the source's valid region
        g = part[:, :16]  # never wider than the source's valid region
        r = t[i]  # a row: tiles stay 2-D, so [1, 128]
        v = t[i, 3]  # an element
        return pl.store(a, [0, 0], x)


# == the same, written out ==
import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[64, 128], pl.FP32], w: pl.Scalar[pl.INDEX],
          i: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 128], pl.FP32]:
        t = pl.load(x, [0, 0], [64, 128])
        part = pl.load(x, [0, 0], [64, 128], valid_shape=[64, w])
        a = pl.tile.slice(t, [16, 128], [0, 0])
        b = pl.tile.slice(t, [64, 128], [0, 0], [64, pl.min(w, 128)])
        c = pl.tile.slice(t, [64, 128], [0, 0])
        d = pl.tile.slice(t, [64, 112], [0, 16])
        e = pl.tile.slice(part, [64, 128], [0, 0], [64, w])
        g = pl.tile.slice(part, [64, 16], [0, 0], [64, pl.min(16, w)])
        r = pl.tile.slice(t, [1, 128], [i, 0], [], [0])
        v = pl.tile.read(t, [i, 3])
        return pl.store(a, [0, 0], x)
