# expect: out = np.concatenate([x[:2], y[5:6, 3:19], x[3:]])
import pl


# Row 5 of y, columns 3..18, lands in row 2 of a copy of x.
@pl.program
class TensorGatherRow:
    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        y: pl.Tensor[[16, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
    ) -> pl.Tensor[[8, 16], pl.FP32]:
        r = pl.tensor.gather_row(x, y, [2, 0], [5, 3], [1, 16])
        out = pl.assemble(out, r, [0, 0])
        return out
