# expect: out = np.concatenate([x[:2], src, x[6:]])
import pl


# Rows 2..5 of the input take the rows of src; the tensor op returns an updated copy.
@pl.program
class TensorScatterUpdate:
    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        src: pl.Tensor[[4, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
    ) -> pl.Tensor[[8, 16], pl.FP32]:
        k = pl.tensor.ci(2, [1, 4], dtype=pl.INT32)
        r = pl.tensor.scatter_update(x, k, src, dim=-2)
        out = pl.assemble(out, r, [0, 0])
        return out
