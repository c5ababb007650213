# pass: auto_tile_matmul_l0  backend: 910B
"""A product whose M/N tiling would write out more output blocks than the pass allows (here a
mistyped N of 2**25): a located error, where writing the grid out took minutes and gigabytes."""

import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[128, 512], pl.BF16],
        b: pl.Tensor[[512, 33554432], pl.BF16],
        out: pl.Out[pl.Tensor[[128, 33554432], pl.FP32]],
    ) -> pl.Tensor[[128, 33554432], pl.FP32]:
        a_mat = pl.tile.load(a, [0, 0], [128, 512], target_memory=pl.MemorySpace.Mat)
        b_mat = pl.tile.load(b, [0, 0], [512, 33554432], target_memory=pl.MemorySpace.Mat)
        c = pl.tile.matmul(a_mat, b_mat)  # error: would be tiled into 131072 output blocks
        out = pl.tile.store(c, [0, 0], out)
        return out
