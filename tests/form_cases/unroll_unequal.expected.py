"""A pl.unroll loop whose copies compile differently: each copy stands where the loop was."""

# note: UnrollUnequal.kernel: the pl.unroll loop at line 18 is shown as it compiles, at its place, below the level it is written at (the copies of the pl.unroll loop at line 18 compile differently (other types, spaces or moves)); the rest of the function is annotated as written

import pl


@pl.program
class UnrollUnequal:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        t: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Mat] = pl.load(
            x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Mat
        )
        # The first copy reads the Mat tile, which must move to Vec; the second reads a Vec one.
        t_Vec: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.move(
            t,
            target_memory=pl.MemorySpace.Vec,
            blayout=pl.TileLayout.row_major,
            slayout=pl.TileLayout.none_box,
        )  # applied twice
        t: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(t_Vec)
        t: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(t)
        out = pl.store(t, [0, 0], out)
        return out
