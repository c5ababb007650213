# expect: out = np.block([[np.concatenate([x[:2], y[5:6, 3:19], x[3:]]), x], [out[8:, :16], np.full((8, 16), -np.inf, np.float32)]])
import pl


# Inside an InCore function, tensor.gather_row (row 5 of y, columns 3..18, into row 2 of a copy
# of x) and tensor.fillpad_expand (x padded to 16 rows with -inf) convert to
# their tile ops.
@pl.program
class IncoreFillpadExpandGatherRow:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        y: pl.Tensor[[16, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        g = pl.tensor.gather_row(x, y, [2, 0], [5, 3], [1, 16])
        p = pl.tensor.fillpad_expand(x, [16, 16], pad_value=pl.PadValue.min)
        out = pl.assemble(out, g, [0, 0])
        out = pl.assemble(out, p, [0, 16])
        return out
