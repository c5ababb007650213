# expect: out = x + (0 * 0 + 1 * 1 + 2 * 2 + 3 * 3) + 40
import pl


@pl.program
class ArrayIndexing:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.INT32],
        out: pl.Out[pl.Tensor[[16, 64], pl.INT32]],
    ) -> pl.Tensor[[16, 64], pl.INT32]:
        squares = pl.array.create(4, pl.INT64)
        for i in pl.range(4):
            squares[i] = i * i
        total: pl.Scalar[pl.INT64] = 0
        for j in pl.range(4):
            total = total + squares[j]
        flags: pl.Array[2, pl.BOOL] = pl.array.create(2, dtype=pl.BOOL)
        flags[0] = total > 10
        flags[1] = total > 100
        bonus: pl.Scalar[pl.INT64] = 0
        if flags[0]:
            bonus = bonus + 40
        if flags[1]:
            bonus = bonus + 1000
        t = pl.load(x, [0, 0], [16, 64])
        s = pl.tile.adds(t, pl.cast(total + bonus, pl.INT32))
        out = pl.store(s, [0, 0], out)
        return out
