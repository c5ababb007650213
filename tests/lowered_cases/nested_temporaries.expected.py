import pl


@pl.program
class NestedTemporaries:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 64], pl.FP16],
        b: pl.Tensor[[64, 32], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        # Each nested load is a value of its own, of its own type: each gets its own name
        # (`load` is not a name this function binds).
        load_mat: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Mat] = pl.tile.load(
            a, [0, 0], [16, 64], [16, 64], target_memory=pl.MemorySpace.Mat
        )
        lhs: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Left] = pl.tile.move(
            load_mat, target_memory=pl.MemorySpace.Left
        )
        load_mat_1: pl.Tile[[64, 32], pl.FP16, pl.MemorySpace.Mat] = pl.tile.load(
            b, [0, 0], [64, 32], [64, 32], target_memory=pl.MemorySpace.Mat
        )
        rhs: pl.Tile[[64, 32], pl.FP16, pl.MemorySpace.Right] = pl.tile.move(
            load_mat_1, target_memory=pl.MemorySpace.Right
        )
        matmul: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(lhs, rhs)
        out: pl.Tensor[[16, 32], pl.FP32] = pl.tile.store(matmul, [0, 0], out)
        return out
