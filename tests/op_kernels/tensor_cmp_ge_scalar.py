# expect: out = (x >= np.float32(0.25)).astype(np.float32)
import pl


@pl.program
class TensorCmpGeScalar:
    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        y: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        r = pl.tensor.cmp(x, 0.25, cmp_type=5)
        out = pl.assemble(out, r, [0, 0])
        return out
