"""A tensor-level matmul over N tiles whose LHS is stationary: residency loads it once.

The root orchestration creates the LHS with pl.create_tensor, so the compiler can prove its storage
is distinct from the written `out`; the LHS bridge load and its Left move are hoisted before the
loop, while the N-dependent RHS slice keeps streaming inside it.
"""

import pl


@pl.program
class StationaryLhs:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[16, 128], pl.BF16],
        rhs: pl.Tensor[[128, 256], pl.BF16],
        out: pl.Out[pl.Tensor[[16, 256], pl.FP32]],
    ) -> pl.Tensor[[16, 256], pl.FP32]:
        lhs_mat: pl.Tile[[16, 128], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(
            lhs, [0, 0], [16, 128], [16, 128], target_memory=pl.MemorySpace.Mat
        )
        lhs_mat_Left: pl.Tile[[16, 128], pl.BF16, pl.MemorySpace.Left] = pl.tile.move(
            lhs_mat, target_memory=pl.MemorySpace.Left
        )
        for n, (acc,) in pl.range(0, 256, 128, init_values=(out,)):
            rhs_n_mat: pl.Tile[[128, 128], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(
                rhs, [0, n], [128, 128], [128, 128], target_memory=pl.MemorySpace.Mat
            )
            rhs_n_mat_Right: pl.Tile[[128, 128], pl.BF16, pl.MemorySpace.Right] = pl.tile.move(
                rhs_n_mat, target_memory=pl.MemorySpace.Right
            )
            c_n_acc: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(
                lhs_mat_Left, rhs_n_mat_Right
            )
            assemble_tensor: pl.Tensor[[16, 256], pl.FP32] = pl.tile.store(c_n_acc, [0, n], acc)
            result: pl.Tensor[[16, 256], pl.FP32] = pl.yield_(assemble_tensor)
        return result

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        rhs: pl.Tensor[[128, 256], pl.BF16],
        out: pl.Out[pl.Tensor[[16, 256], pl.FP32]],
    ) -> pl.Tensor[[16, 256], pl.FP32]:
        fresh_lhs = pl.create_tensor([16, 128], dtype=pl.BF16)
        result = self.kernel(fresh_lhs, rhs, out)
        return result
