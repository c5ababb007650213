# pass: canonicalize_tile_slice  backend: 910B
"""A col_expand op reading a column window of a multi-row tile: the window is 32-byte aligned but
not contiguous, so copying it in place would overwrite its own source; it becomes an extract.
"""

import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[4, 32], pl.FP32],
        t: pl.Tensor[[4, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
    ) -> pl.Tensor[[4, 16], pl.FP32]:
        xt = pl.tile.load(x, [0, 0], [4, 32], target_memory=pl.MemorySpace.Vec)
        tt = pl.tile.load(t, [0, 0], [1, 16], target_memory=pl.MemorySpace.Vec)
        half = pl.tile.slice(xt, [4, 16], [0, 16])
        a = pl.tile.col_expand_mul(half, tt)
        out = pl.store(a, [0, 0], out)
        return out


@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[4, 32], pl.FP32],
        t: pl.Tensor[[4, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
    ) -> pl.Tensor[[4, 16], pl.FP32]:
        xt = pl.tile.load(x, [0, 0], [4, 32], target_memory=pl.MemorySpace.Vec)
        tt = pl.tile.load(t, [0, 0], [1, 16], target_memory=pl.MemorySpace.Vec)
        half = pl.tile.extract(xt, 0, 16, [4, 16], target_memory=pl.MemorySpace.Vec)
        a = pl.tile.col_expand_mul(half, tt)
        out = pl.store(a, [0, 0], out)
        return out
