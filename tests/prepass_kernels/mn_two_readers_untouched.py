# pass: auto_tile_matmul_l0  backend: 910B
"""A [256, 256] fp32 product (256 KiB > 910B's 128 KiB L0C) read by a store and by an add: there
is no single store to fold the output blocks into, so the matmul is left as it is.
"""

import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[256, 64], pl.FP16],
        rhs: pl.Tensor[[64, 256], pl.FP16],
        out: pl.Out[pl.Tensor[[256, 256], pl.FP32]],
        out2: pl.Out[pl.Tensor[[256, 256], pl.FP32]],
    ) -> tuple[pl.Tensor[[256, 256], pl.FP32], pl.Tensor[[256, 256], pl.FP32]]:
        lhs_mat = pl.load(lhs, [0, 0], [256, 64], target_memory=pl.MemorySpace.Mat)
        rhs_mat = pl.load(rhs, [0, 0], [64, 256], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(lhs_mat, rhs_mat)
        out = pl.store(c, [0, 0], out)
        twice = pl.add(c, c)
        out2 = pl.store(twice, [0, 0], out2)
        return out, out2


Expected = Before
