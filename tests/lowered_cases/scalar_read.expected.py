"""A scalar read from a tensor in a function shown as it compiles: compilation reads it anew
(`pl.tensor.read` becomes a read of the tensor's tile), and the output names that read apart
from the user's `n`; read back, it keeps that name."""

import pl


@pl.program
class ScalarRead:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[64, 128], pl.FP32],
        lens: pl.Tensor[[4], pl.INT32],
        out: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
    ) -> pl.Tensor[[64, 128], pl.FP32]:
        for b, (out,) in pl.range(4, init_values=(out,)):
            n_tensor: pl.Scalar[pl.INT32] = pl.tensor.read(lens, [b])  # this block's length
            if n_tensor > pl.const(0, pl.INT32):
                t: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
                    x, [b * 16, 0], [16, 128], [16, 128], target_memory=pl.MemorySpace.Vec
                )
                add: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.add(t, t)
                out: pl.Tensor[[64, 128], pl.FP32] = pl.tile.store(add, [b * 16, 0], out)
            out: pl.Tensor[[64, 128], pl.FP32] = pl.yield_(out)
        return out
