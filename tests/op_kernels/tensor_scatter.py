# expect: out = np.concatenate([x[:, :8], src[:, ::-1]], axis=-1)
import pl


# output = input; output[b, index[b, k]] = src[b, k]: a descending arange writes src reversed
# into columns 15..8.
@pl.program
class TensorScatter:
    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(
        self,
        x: pl.Tensor[[1, 16], pl.FP32],
        src: pl.Tensor[[1, 8], pl.FP32],
        out: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
    ) -> pl.Tensor[[1, 16], pl.FP32]:
        k = pl.tensor.ci(15, [1, 8], dtype=pl.INT32, descending=True)
        r = pl.tensor.scatter(x, dim=-1, index=k, src=src)
        out = pl.assemble(out, r, [0, 0])
        return out
