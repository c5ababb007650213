# expect: out = np.concatenate([y[3:4, 4:20], y[7:8, :16]])
import pl


# An L1 accumulator filled row by row (every row written: a created buffer's contents are undefined).
@pl.program
class CreateL1GatherRow:
    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(
        self,
        y: pl.Tensor[[16, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[2, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 16], pl.FP32]:
        acc = pl.create_l1([2, 16], pl.FP32)
        acc = pl.gather_row(acc, y, [0, 0], [3, 4], [1, 16])
        acc = pl.gather_row(acc, y, [1, 0], [7, 0], [1, 16])
        out = pl.assemble(out, acc, [0, 0])
        return out
