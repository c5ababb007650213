# expect: out = np.take_along_axis(x, ix & 15, axis=-1)
import pl


# output[b, k] = input[b, index[b, k]]; the indices are made valid (0..15) in the kernel.
@pl.program
class TensorGather:
    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(
        self,
        x: pl.Tensor[[4, 16], pl.FP32],
        ix: pl.Tensor[[4, 8], pl.INT32],
        out: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
    ) -> pl.Tensor[[4, 8], pl.FP32]:
        k = pl.tensor.ands(ix, 15)
        r = pl.tensor.gather(x, dim=-1, index=k)
        out = pl.assemble(out, r, [0, 0])
        return out
