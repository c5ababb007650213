import pl


@pl.program
class P:
    @pl.function
    def f(self, c: pl.Tensor[[8, 4, 16, 32], pl.FP32], i: pl.Scalar[pl.INDEX],
          j: pl.Scalar[pl.INDEX], k: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.FP32]:
        a = c[i]  # partial index: a 3-D view, dimension 0 dropped
        b = c[i][j]  # chained: two views
        d = c[i, j]  # one view dropping two dimensions
        e = c[0:4, j]  # a slice keeps its dimension, the index drops one
        g = c[:, :, 2:, 8:24]  # open bounds: from 0, to the end
        h = c[i : i + 2, 1:3]  # (i + 2) - i folds to 2
        n = c[:, :, :k]  # an omitted lower bound: the upper bound is the extent
        q = c[:, :, j:k]  # an extent that does not fold: k - j
        w = c[:, :, k * 4 : (k + 1) * 4]  # (k + 1) * 4 - k * 4 folds to 4
        v = c[1, 2, 3, 4]  # an index per dimension reads an element
        return v


# == the same, written out ==
import pl


@pl.program
class P:
    @pl.function
    def f(self, c: pl.Tensor[[8, 4, 16, 32], pl.FP32], i: pl.Scalar[pl.INDEX],
          j: pl.Scalar[pl.INDEX], k: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.FP32]:
        a = pl.tensor.slice(c, [1, 4, 16, 32], [i, 0, 0, 0], [], [0])
        b = pl.tensor.slice(pl.tensor.slice(c, [1, 4, 16, 32], [i, 0, 0, 0], [], [0]), [1, 16, 32], [j, 0, 0], [], [0])
        d = pl.tensor.slice(c, [1, 1, 16, 32], [i, j, 0, 0], [], [0, 1])
        e = pl.tensor.slice(c, [4, 1, 16, 32], [0, j, 0, 0], [], [1])
        g = pl.tensor.slice(c, [8, 4, 14, 16], [0, 0, 2, 8])
        h = pl.tensor.slice(c, [2, 2, 16, 32], [i, 1, 0, 0])
        n = pl.tensor.slice(c, [8, 4, k, 32], [0, 0, 0, 0])
        q = pl.tensor.slice(c, [8, 4, k - j, 32], [0, 0, j, 0])
        w = pl.tensor.slice(c, [8, 4, 4, 32], [0, 0, k * 4, 0])
        v = pl.tensor.read(c, [1, 2, 3, 4])
        return v
