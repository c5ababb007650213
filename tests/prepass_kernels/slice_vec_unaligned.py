# pass: canonicalize_tile_slice  backend: 910B
"""Vec slices that start off a 32-byte boundary get their own buffer (a Vec extract, the same
values): column 3 of an fp32 row is 12 bytes in; row 1 of a [17, 4] fp32 tile (an offset bound
to a constant) 16 bytes; a dynamic column proves nothing. Column 8 (32 bytes) stays a slice. Each extract is taken right
before the statement that reads it, as the slice (a view) reads its source only there.
"""

import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.Tensor[[17, 4], pl.FP32],
        col: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[16, 4], pl.FP32]],
        out2: pl.Out[pl.Tensor[[16, 4], pl.FP32]],
    ) -> tuple[pl.Tensor[[16, 4], pl.FP32], pl.Tensor[[16, 4], pl.FP32]]:
        xt = pl.tile.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Vec)
        yt = pl.tile.load(y, [0, 0], [17, 4], target_memory=pl.MemorySpace.Vec)
        a = pl.tile.slice(xt, [16, 1], [0, 3])
        b = pl.tile.slice(xt, [16, 1], [0, 8])
        c = pl.tile.slice(xt, [16, 1], [0, col])
        one = 1
        d = pl.tile.slice(yt, [16, 4], [one, 0])
        a2 = pl.tile.muls(a, 2.0)
        b2 = pl.tile.muls(b, 3.0)
        c2 = pl.tile.muls(c, 4.0)
        out = pl.store(a2, [0, 0], out)
        out = pl.store(b2, [0, 1], out)
        out = pl.store(c2, [0, 2], out)
        out2 = pl.store(d, [0, 0], out2)
        return out, out2


@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.Tensor[[17, 4], pl.FP32],
        col: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[16, 4], pl.FP32]],
        out2: pl.Out[pl.Tensor[[16, 4], pl.FP32]],
    ) -> tuple[pl.Tensor[[16, 4], pl.FP32], pl.Tensor[[16, 4], pl.FP32]]:
        xt = pl.tile.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Vec)
        yt = pl.tile.load(y, [0, 0], [17, 4], target_memory=pl.MemorySpace.Vec)
        b = pl.tile.slice(xt, [16, 1], [0, 8])
        one = 1  # noqa: F841  (kept: the pass leaves the scalar alone)
        a = pl.tile.extract(xt, 0, 3, [16, 1], target_memory=pl.MemorySpace.Vec)
        a2 = pl.tile.muls(a, 2.0)
        b2 = pl.tile.muls(b, 3.0)
        c = pl.tile.extract(xt, 0, col, [16, 1], target_memory=pl.MemorySpace.Vec)
        c2 = pl.tile.muls(c, 4.0)
        out = pl.store(a2, [0, 0], out)
        out = pl.store(b2, [0, 1], out)
        out = pl.store(c2, [0, 2], out)
        d = pl.tile.extract(yt, 1, 0, [16, 4], target_memory=pl.MemorySpace.Vec)
        out2 = pl.store(d, [0, 0], out2)
        return out, out2
