# expect: out = np.take_along_axis(x[:2, :, :4], ix & 7, axis=1)
import pl


# torch.gather along the middle axis, with an index smaller than the input off that axis:
# output[i, j, k] = input[i, index[i, j, k], k].
@pl.program
class TensorGatherMiddle:
    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(
        self,
        x: pl.Tensor[[3, 8, 6], pl.FP32],
        ix: pl.Tensor[[2, 5, 4], pl.INT32],
        out: pl.Out[pl.Tensor[[2, 5, 4], pl.FP32]],
    ) -> pl.Tensor[[2, 5, 4], pl.FP32]:
        k = pl.tensor.ands(ix, 7)
        r = pl.tensor.gather(x, dim=1, index=k)
        out = pl.assemble(out, r, [0, 0, 0])
        return out
