# expect: out[2:18, 0:4] = x[:, 0:4] + 1
import pl


@pl.program
class K:
    @pl.function
    def kernel(self, x: pl.Tensor[[16, 8], pl.FP32],
               out: pl.InOut[pl.Tensor[[32, 8], pl.FP32]]) -> pl.Tensor[[32, 8], pl.FP32]:
        narrowed = pl.set_validshape(x, 16, 4)  # only the first 4 columns are real data
        plus = pl.add(narrowed, 1.0)  # keeps the [16, 4] valid region
        out[2:18, 0:4] = plus  # only the valid region moves: columns 4..7 keep their values
        return out
