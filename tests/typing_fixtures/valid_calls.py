"""Valid kernels the stubs once rejected: each line here must type-check (no error marker)."""

# ruff: noqa: F841  (fixtures bind names only to show their types)

import pl


@pl.program
class ValidCalls:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        cfg: pl.Tensor[[4], pl.INT32],
        out: pl.Out[pl.Tensor[[4], pl.INT32]],
    ) -> pl.Tensor[[4], pl.INT32]:
        # An index list, as pl.tile.read takes one (the stub typed it as a tensor or one scalar).
        first = pl.tensor.read(cfg, [0])
        n: pl.Scalar[pl.INT32] = pl.read(cfg, [1])
        out = pl.tensor.write(out, [0], first)
        return out
