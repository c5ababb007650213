# expect: out = np.concatenate([k_order_matmul(x, w), out[1:]])
# gemv writes row 0 of a [16, N] accumulator (valid [1, N]); the store writes that row only.
import pl


@pl.program
class Gemv:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[1, 64], pl.FP32],
        w: pl.Tensor[[64, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        a = pl.load(x, [0, 0], [1, 64], target_memory=pl.MemorySpace.Mat)
        b = pl.load(w, [0, 0], [64, 32], target_memory=pl.MemorySpace.Mat)
        r = pl.tile.gemv(a, b)
        out = pl.store(r, [0, 0], out)
        return out
