import pl


@pl.program
class TaskReturnsTile:
    @pl.function(type=pl.FunctionType.InCore)
    def square(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        ret0_out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        x_vec: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
            x, [0, 0], [64, 64], [64, 64], target_memory=pl.MemorySpace.Vec
        )
        y_vec: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.mul(x_vec, x_vec)
        ret0_store: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(y_vec, [0, 0], ret0_out)
        return ret0_store

    # The kernel's orchestration: its scope's body runs as a task.
    @pl.function
    def main(self, x: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint='square'):
            ret0_out: pl.Tensor[[64, 64], pl.FP32] = pl.tensor.create(
                [64, 64], dtype=pl.FP32, layout=pl.TensorLayout.ND
            )
            y: pl.Tensor[[64, 64], pl.FP32] = self.square(x, ret0_out)
        # The task computes a tensor the function returns after the scope: compilation
        # stores its tile into a tensor the scope creates, so the task is shown as a
        # method of its own and the scope as the call of it.
        # squared
        return y
