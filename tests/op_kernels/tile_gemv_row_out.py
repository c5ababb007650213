# expect: out = k_order_matmul(x, w)
# The [16, N] gemv accumulator holds one valid row: storing it into a [1, N] row writes that row
# only, so it stays within the destination.
import pl


@pl.program
class GemvRowOut:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[1, 64], pl.FP16],
        w: pl.Tensor[[64, 32], pl.FP16],
        out: pl.Out[pl.Tensor[[1, 32], pl.FP32]],
    ) -> pl.Tensor[[1, 32], pl.FP32]:
        a = pl.load(x, [0, 0], [1, 64], target_memory=pl.MemorySpace.Mat)
        b = pl.load(w, [0, 0], [64, 32], target_memory=pl.MemorySpace.Mat)
        a_l = pl.tile.move(a, target_memory=pl.MemorySpace.Left)
        b_r = pl.tile.move(b, target_memory=pl.MemorySpace.Right)
        r = pl.tile.gemv(a_l, b_r)
        out = pl.store(r, [0, 0], out)
        return out
