"""A K-tiled panel matmul: [128, 512] x [512, 64] BF16 overflows L0A/L0B on 910B.

auto_tile_matmul_l0 splits each matmul into a pipelined K loop (k = 128) that extracts Left/Right
slabs from the Mat panels; residency then hoists only the whole-panel LHS load out of the N loop,
leaving the K-dependent extracts where they are.
"""

import pl


@pl.program
class KTiledPanel:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[128, 512], pl.BF16],
        rhs: pl.Tensor[[512, 256], pl.BF16],
        out: pl.Out[pl.Tensor[[128, 256], pl.FP32]],
    ) -> pl.Tensor[[128, 256], pl.FP32]:
        for n, (acc,) in pl.range(0, 256, 64, init_values=(out,)):
            rhs_n = pl.slice(rhs, [512, 64], [0, n])
            c_n = pl.matmul(lhs, rhs_n, out_dtype=pl.FP32)
            acc_next = pl.assemble(acc, c_n, [0, n])
            result = pl.yield_(acc_next)
        return result

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        rhs: pl.Tensor[[512, 256], pl.BF16],
        out: pl.Out[pl.Tensor[[128, 256], pl.FP32]],
    ) -> pl.Tensor[[128, 256], pl.FP32]:
        panel = pl.create_tensor([128, 512], dtype=pl.BF16)
        result = self.kernel(panel, rhs, out)
        return result
