# expect: out = np.concatenate([k_order_matmul(x, w, bias), out[1:]])
import pl


# gemv_bias starts the accumulator with the bias over the first half of K, gemv_acc continues it over
# the second half: the K-order sum of the whole row, bias first.
@pl.program
class GemvBiasAcc:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[1, 64], pl.FP32],
        w: pl.Tensor[[64, 32], pl.FP32],
        bias: pl.Tensor[[1, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        a0 = pl.load(x, [0, 0], [1, 32], target_memory=pl.MemorySpace.Mat)
        b0 = pl.load(w, [0, 0], [32, 32], target_memory=pl.MemorySpace.Mat)
        a1 = pl.load(x, [0, 32], [1, 32], target_memory=pl.MemorySpace.Mat)
        b1 = pl.load(w, [32, 0], [32, 32], target_memory=pl.MemorySpace.Mat)
        c = pl.load(bias, [0, 0], [1, 32], target_memory=pl.MemorySpace.Mat)
        acc = pl.tile.gemv_bias(a0, b0, c)
        r = pl.tile.gemv_acc(acc, a1, b1)
        out = pl.store(r, [0, 0], out)
        return out
