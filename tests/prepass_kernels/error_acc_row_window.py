# pass: canonicalize_tile_slice  backend: 910B
"""Accumulating into rows 16..31 of a [32, 32] Acc tile: the window spans two 16-column blocks of
L0C's block layout without spanning every row, and the MAD has no destination stride."""

import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 32], pl.FP16],
        out: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        x_mat = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        a = pl.tile.move(x_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.tile.load(w, [0, 0], [64, 32], target_memory=pl.MemorySpace.Mat)
        b = pl.tile.move(w_mat, target_memory=pl.MemorySpace.Right)
        acc = pl.tile.create([32, 32], pl.FP32, target_memory=pl.MemorySpace.Acc)
        window = pl.tile.slice(acc, [16, 32], [16, 0])
        acc_new = pl.tile.matmul_acc(window, a, b)  # error: not contiguous in L0C's block layout
        out = pl.tile.store(acc_new, [0, 0], out)
        return out
