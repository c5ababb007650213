"""A pl.unroll loop whose copies have other shapes: each copy stands where the loop was, its
values named apart where a name would be rebound to another shape."""

# note: UnrollShapes.kernel: the pl.unroll loop at line 18 is shown as it compiles, at its place, below the level it is written at (the copies of the pl.unroll loop at line 18 compile differently

import pl


@pl.program
class UnrollShapes:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[64, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
    ) -> pl.Tensor[[64, 128], pl.FP32]:
        # Copy i loads and stores a block of (i + 1) * 16 rows: the copies' types differ.
        t: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
            x, [0, 0], [16, 128], [16, 128], target_memory=pl.MemorySpace.Vec
        )
        e: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(t)  # one block
        out: pl.Tensor[[64, 128], pl.FP32] = pl.tile.store(e, [0, 0], out)
        t_1: pl.Tile[[32, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
            x, [0, 0], [32, 128], [32, 128], target_memory=pl.MemorySpace.Vec
        )
        e_1: pl.Tile[[32, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(t_1)
        out: pl.Tensor[[64, 128], pl.FP32] = pl.tile.store(e_1, [0, 0], out)
        return out
