"""A pl.unroll loop whose copies all compile alike: the loop stays, annotated once."""

import pl


@pl.program
class UnrollEqual:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[64, 256], pl.BF16],
        rhs: pl.Tensor[[256, 64], pl.BF16],
        out: pl.Out[pl.Tensor[[256, 64], pl.FP32]],
    ) -> pl.Tensor[[256, 64], pl.FP32]:
        # One product per K block, each stored in its own rows.
        for k in pl.unroll(4):
            a: pl.Tile[[64, 64], pl.BF16, pl.MemorySpace.Mat] = pl.load(
                lhs, [0, k * 64], [64, 64], target_memory=pl.MemorySpace.Mat
            )
            b: pl.Tile[[64, 64], pl.BF16, pl.MemorySpace.Mat] = pl.load(
                rhs, [k * 64, 0], [64, 64], target_memory=pl.MemorySpace.Mat
            )
            a_Left: pl.Tile[[64, 64], pl.BF16, pl.MemorySpace.Left] = pl.move(
                a, target_memory=pl.MemorySpace.Left
            )
            b_Right: pl.Tile[[64, 64], pl.BF16, pl.MemorySpace.Right] = pl.move(
                b, target_memory=pl.MemorySpace.Right
            )

            c: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(a_Left, b_Right)  # a and b are moved to L0
            out = pl.store(c, [k * 64, 0], out)
        return out
