# expect: out = x + 9
import pl


@pl.program
class ArrayOfScalars:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.INT32],
        out: pl.Out[pl.Tensor[[16, 64], pl.INT32]],
    ) -> pl.Tensor[[16, 64], pl.INT32]:
        arr: pl.Array[4, pl.INT32] = pl.array.create(4, dtype=pl.INT32)
        for i in pl.range(4):
            arr = pl.array.update_element(arr, i, i)
        a: pl.Scalar[pl.INT32] = pl.array.get_element(arr, 2)
        b: pl.Scalar[pl.INT32] = pl.array.get_element(arr, 3)
        arr = pl.array.update_element(arr, 0, a + b + 4)
        c: pl.Scalar[pl.INT32] = pl.array.get_element(arr, 0)
        t = pl.load(x, [0, 0], [16, 64])
        s = pl.tile.adds(t, c)
        out = pl.store(s, [0, 0], out)
        return out
