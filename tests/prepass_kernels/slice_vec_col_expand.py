# pass: canonicalize_tile_slice  backend: 910B
"""A col_expand op cannot read a view: it copies the slice into the slice's own buffer, which
lies inside the source, so the copy must be an identity (a constant offset and a contiguous
window). A column window of a multi-row tile is not contiguous: it becomes an extract even though
it is 32-byte aligned; a single row at a constant offset stays a slice.
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
        out2: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
    ) -> tuple[pl.Tensor[[4, 16], pl.FP32], pl.Tensor[[4, 16], pl.FP32]]:
        xt = pl.tile.load(x, [0, 0], [4, 32], target_memory=pl.MemorySpace.Vec)
        tt = pl.tile.load(t, [0, 0], [4, 16], target_memory=pl.MemorySpace.Vec)
        half = pl.tile.slice(xt, [4, 16], [0, 16])
        row = pl.tile.slice(xt, [1, 16], [2, 0])
        a = pl.tile.col_expand_mul(tt, row)
        b = pl.tile.add(half, tt)
        out = pl.store(a, [0, 0], out)
        out2 = pl.store(b, [0, 0], out2)
        return out, out2


Expected = Before
