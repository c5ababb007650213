import pl


# The created tile is declared with a narrower valid region than its shape: the slice is typed
# against that declaration (valid [6, 6] of an [8, 8] slice at [6, 6]), so SSA keeps it too.
@pl.program
class SliceOfDeclaredValid:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, dst: pl.Tensor[[8, 8], pl.FP32]) -> pl.Tensor[[8, 8], pl.FP32]:
        parent: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec, pl.TileView(valid_shape=[12, 12])] = (
            pl.tile.create([16, 16], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec))
        sliced: pl.Tile[[8, 8], pl.FP32] = pl.tile.slice(parent, [8, 8], [6, 6])
        return pl.store(sliced, [0, 0], dst)
