# expect: out = np.concatenate([x @ w + bias, out[1:]])
import pl


@pl.program
class GemvBias:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[1, 64], pl.FP32],
        w: pl.Tensor[[64, 32], pl.FP32],
        bias: pl.Tensor[[1, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        a = pl.load(x, [0, 0], [1, 64], target_memory=pl.MemorySpace.Mat)
        b = pl.load(w, [0, 0], [64, 32], target_memory=pl.MemorySpace.Mat)
        c = pl.load(bias, [0, 0], [1, 32], target_memory=pl.MemorySpace.Mat)
        r = pl.tile.gemv_bias(a, b, c)
        out = pl.store(r, [0, 0], out)
        return out
