# expect: out = np.concatenate([x[:2], y[5:6], x[3:]])
import pl


# One row of the GM tensor y (row 5) lands in row 2 of the on-chip tile.
@pl.program
class GatherOneRow:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        y: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
    ) -> pl.Tensor[[8, 16], pl.FP32]:
        a = pl.load(x, [0, 0], [8, 16])
        r = pl.tile.gather_row(a, y, [2, 0], [5, 0], [1, 16])
        out = pl.store(r, [0, 0], out)
        return out
