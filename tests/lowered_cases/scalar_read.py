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
        for b in pl.range(4):
            n = pl.tensor.read(lens, [b])  # this block's length
            if n > 0:
                t = pl.load(x, [b * 16, 0], [16, 128])
                out = pl.store(pl.add(t, t), [b * 16, 0], out)
        return out
