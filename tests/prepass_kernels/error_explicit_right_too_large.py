# pass: auto_tile_matmul_l0  backend: 910B
"""A Right operand placed by hand that no L0B can hold ([256, 256] fp16 = 128 KiB > 64 KiB): the
pass never retiles Left/Right operands, so this is the kernel's error, shown where it is made."""

import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[64, 256], pl.FP16],
        b: pl.Tensor[[256, 256], pl.FP16],
        out: pl.Out[pl.Tensor[[64, 256], pl.FP32]],
    ) -> pl.Tensor[[64, 256], pl.FP32]:
        a_mat = pl.tile.load(a, [0, 0], [64, 256], target_memory=pl.MemorySpace.Mat)
        b_mat = pl.tile.load(b, [0, 0], [256, 256], target_memory=pl.MemorySpace.Mat)
        a_left = pl.tile.extract(a_mat, 0, 0, [64, 256], target_memory=pl.MemorySpace.Left)
        b_right = pl.tile.extract(b_mat, 0, 0, [256, 256], target_memory=pl.MemorySpace.Right)  # error: tile.matmul right operand 'b_right' is already resident in Right (L0B)
        acc = pl.tile.matmul(a_left, b_right)
        out = pl.tile.store(acc, [0, 0], out)
        return out
