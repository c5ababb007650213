# expect: out[1, :, :] = x[3, :, :] * 2 ; out[0, 5, :] = x[1, 2, :]
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[4, 8, 16], pl.FP32],
               out: pl.InOut[pl.Tensor[[2, 8, 16], pl.FP32]]) -> pl.Tensor[[2, 8, 16], pl.FP32]:
        out[1] = pl.mul(x[3], 2.0)  # a [8, 16] plane, lifted to the [1, 8, 16] window
        out[0, 5] = x[1, 2]  # a [16] row, lifted to [1, 1, 16]
        return out
