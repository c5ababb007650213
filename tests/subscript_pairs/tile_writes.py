import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[64, 16], pl.FP32], row: pl.Tensor[[16], pl.FP32],
          src: pl.Tensor[[16, 8], pl.FP32], i: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [64, 16])
        r = pl.load(row, [0], [16])
        t[i] = r  # a 1-D tile lifted to the [1, 16] row window
        s = pl.load(src, [0, 0], [16, 8])
        narrow = pl.tile.set_validshape(s, 16, 4)
        t[0:16, 0:4] = narrow  # fits through its valid region
        t[16:32, 8:] = s
        return pl.store(t, [0, 0], x)


# == the same, written out ==
import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[64, 16], pl.FP32], row: pl.Tensor[[16], pl.FP32],
          src: pl.Tensor[[16, 8], pl.FP32], i: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [64, 16])
        r = pl.load(row, [0], [16])
        t = pl.tile.assemble(t, pl.tile.reshape(r, [1, 16]), [i, 0])
        s = pl.load(src, [0, 0], [16, 8])
        narrow = pl.tile.set_validshape(s, 16, 4)
        t = pl.tile.assemble(t, narrow, [0, 0])
        t = pl.tile.assemble(t, s, [16, 8])
        return pl.store(t, [0, 0], x)
