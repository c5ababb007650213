"""A pl.unroll loop whose copies compile differently, inside a loop of a function with more to
show: only the unroll loop stands as its copies; the rest is annotated as written."""

# note: UnrollInPlace.kernel: the pl.unroll loop at line 25 is shown as it compiles, at its place

import pl


@pl.program
class UnrollInPlace:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[64, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
    ) -> pl.Tensor[[64, 128], pl.FP32]:
        """Each 16-row block is raised twice, then halved."""
        # A block in Mat, read by the vector unit.

        for b in pl.range(4):
            blk: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Mat] = pl.load(
                x, [b * 16, 0], [16, 128], target_memory=pl.MemorySpace.Mat
            )  # Mat

            # The first copy reads the Mat tile, which must move to Vec.
            # The second reads a Vec one.
            # raised
            blk_Vec: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.move(
                blk,
                target_memory=pl.MemorySpace.Vec,
                blayout=pl.TileLayout.row_major,
                slayout=pl.TileLayout.none_box,
            )  # applied twice
            blk: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(blk_Vec)
            blk: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(blk)

            half: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.mul(blk, 0.5)  # halved
            out = pl.store(half, [b * 16, 0], out)
        # All blocks are stored.
        return out
