# compile-error: flatten_tile_nd_to_2d: tile.slice on a tile of shape [4, 16, 128] (rank > 2)
import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[4, 16, 128], pl.FP32], i: pl.Scalar[pl.INDEX],
          j: pl.Scalar[pl.INDEX]) -> pl.Tensor[[4, 16, 128], pl.FP32]:
        t = pl.load(x, [0, 0, 0], [4, 16, 128])
        plane = t[i]  # [16, 128]
        row = plane[j]  # [1, 128]
        t[i, j, :] = row  # the row's leading unit axis is not lifted twice: [1, 1, 128]
        t[0] = plane
        return pl.store(t, [0, 0, 0], x)


# == the same, written out ==
import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[4, 16, 128], pl.FP32], i: pl.Scalar[pl.INDEX],
          j: pl.Scalar[pl.INDEX]) -> pl.Tensor[[4, 16, 128], pl.FP32]:
        t = pl.load(x, [0, 0, 0], [4, 16, 128])
        plane = pl.tile.slice(t, [1, 16, 128], [i, 0, 0], [], [0])
        row = pl.tile.slice(plane, [1, 128], [j, 0], [], [0])
        t = pl.tile.assemble(t, pl.tile.reshape(row, [1, 1, 128]), [i, j, 0])
        t = pl.tile.assemble(t, pl.tile.reshape(plane, [1, 16, 128]), [0, 0, 0])
        return pl.store(t, [0, 0, 0], x)
