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
        for n, (acc,) in pl.range(0, 256, 128, init_values=(out,)):
            rhs_n = pl.slice(rhs, [128, 128], [0, n])
            c_n = pl.matmul(lhs, rhs_n, out_dtype=pl.FP32)
            pl.write(lhs, [0, n % 128], 0.5)
            result = pl.yield_(pl.assemble(acc, c_n, [0, n]))
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
