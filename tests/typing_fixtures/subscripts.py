"""Subscripts type-check on tensors and tiles; a write takes a source of its target's kind."""

# ruff: noqa: F841  (fixtures bind names only to show their types)

import pl


@pl.program
class Subscripts:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 128], pl.FP32],
        i: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        top = x[0:8, :]
        row = x[i]
        t = pl.load(x, [0, 0], [16, 128])
        left = t[:, 0:64]
        t[:, 64:] = left
        x[0:16, :] = t  # E: Incompatible types in assignment (expression has type "Tile[FP32, Vec]", target has type "Tensor[FP32]")
        out = pl.store(t, [0, 0], out)
        return out
