"""A matmul whose [M, N] accumulator overflows L0C, with K fitting L0 whole.

[272, 64] x [64, 416] BF16 -> FP32 (442 KiB, more than either backend's L0C). The product is read
once, by a store, so auto_tile_matmul_l0 folds it into that store: the full [m, n] blocks run in
two nested pipelined loops (the held panel's loop outside), each block stored where it belongs,
and the partial border blocks are written out after them; the output tensor is chained through
the stores.
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
