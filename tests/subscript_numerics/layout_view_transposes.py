# expect: out[:, :] = x.T
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[8, 4], pl.FP32],
               out: pl.InOut[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        dn = pl.tensor.view(x, layout=pl.TensorLayout.DN)  # the same memory read column-major
        t = pl.load(dn, [0, 0], [4, 8])
        return pl.store(t, [0, 0], out)
