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
        lhs: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Left] = pl.move(
            pl.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left
        )
        rhs: pl.Tile[[64, 32], pl.FP16, pl.MemorySpace.Right] = pl.move(
            pl.load(b, [0, 0], [64, 32], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right
        )
        out = pl.store(pl.matmul(lhs, rhs), [0, 0], out)
        return out
