# expect: out[1, 2, :] = a[0, :] * b[0, :]
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[4, 16], pl.FP32], b: pl.Tensor[[4, 16], pl.FP32],
               out: pl.InOut[pl.Tensor[[2, 4, 16], pl.FP32]]) -> pl.Tensor[[2, 4, 16], pl.FP32]:
        ta = pl.load(a, [0, 0], [1, 16])
        tb = pl.load(b, [0, 0], [1, 16])
        # a 2-D tile stored into a 3-D tensor: it fills the trailing axes at [1, 2, 0]
        out = pl.store(pl.mul(ta, tb), [1, 2, 0], out)
        return out
