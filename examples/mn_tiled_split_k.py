"""A matmul whose [M, N] accumulator overflows L0C and whose K overflows L0A/L0B.

[256, 512] x [512, 288] INT8 -> INT32. auto_tile_matmul_l0 folds the product into its one store:
an unrolled grid of output blocks, each a pipelined K loop stored where it belongs, the output
tensor chained through the stores.
"""

import pl


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
