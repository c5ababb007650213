import pl


@pl.program
class OutlinedScope:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        # The scope's body runs on a core: compilation outlines it into a task, which loads
        # the tensors it reads on entry; those loads stand first in the scope.
        with pl.at(level=pl.Level.CORE_GROUP):
            x_vec: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
                x, [0, 0], [16, 64], [16, 64], target_memory=pl.MemorySpace.Vec
            )
            y_vec: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.mul(x_vec, x_vec)  # squared
            out: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(y_vec, [0, 0], out)
        return out
