"""Matmuls whose [M, N] accumulator overflows L0C: auto_tile_matmul_l0 tiles the output.

The product is read once, by a store, so the pass folds the matmul into that store: one store per
[m, n] output block, the output tensor chained through them.
* FullKPanel: [272, 64] x [64, 416] BF16. K fits L0 whole, so the full blocks run in two nested
  pipelined loops (the held panel's loop outside) and the partial border is written out after.
* SplitKGrid: [256, 512] x [512, 288] INT8 -> INT32. K is split too: an unrolled grid of
  pipelined K loops, one per output block.
"""

import pl


@pl.program
class FullKPanel:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[272, 64], pl.BF16],
        rhs: pl.Tensor[[64, 416], pl.BF16],
        out: pl.Out[pl.Tensor[[272, 416], pl.FP32]],
    ) -> pl.Tensor[[272, 416], pl.FP32]:
        lhs_mat = pl.load(lhs, [0, 0], [272, 64], target_memory=pl.MemorySpace.Mat)
        rhs_mat = pl.load(rhs, [0, 0], [64, 416], target_memory=pl.MemorySpace.Mat)
        # 272 x 416 fp32 is 442 KiB: more than either backend's L0C
        c = pl.matmul(lhs_mat, rhs_mat)
        out = pl.store(c, [0, 0], out)
        return out


@pl.program
class SplitKGrid:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[256, 512], pl.INT8],
        rhs: pl.Tensor[[512, 288], pl.INT8],
        out: pl.Out[pl.Tensor[[256, 288], pl.INT32]],
    ) -> pl.Tensor[[256, 288], pl.INT32]:
        lhs_mat = pl.load(lhs, [0, 0], [256, 512], target_memory=pl.MemorySpace.Mat)
        rhs_mat = pl.load(rhs, [0, 0], [512, 288], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(lhs_mat, rhs_mat)
        out = pl.store(c, [0, 0], out)  # the store the output blocks replace
        return out
