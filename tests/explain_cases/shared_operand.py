# Two matmuls in a loop share the parameter `lhs`: compiled, two hoisted loads of it named alike
# (lhs__ssa_v0_mat) and their two moves to Left; --explain and --json name each as the
# regenerated file binds it (lhs_mat, lhs_mat_1; lhs_mat_Left, lhs_mat_1_Left).
import pl


@pl.program
class SharedLhs:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[16, 128], pl.BF16],
        rhs: pl.Tensor[[128, 256], pl.BF16],
        rhs2: pl.Tensor[[128, 256], pl.BF16],
        out: pl.Out[pl.Tensor[[16, 256], pl.FP32]],
    ) -> pl.Tensor[[16, 256], pl.FP32]:
        for n, (acc,) in pl.range(0, 256, 128, init_values=(out,)):
            rhs_n = pl.slice(rhs, [128, 128], [0, n])
            rhs2_n = pl.slice(rhs2, [128, 128], [0, n])
            c_n = pl.matmul(lhs, rhs_n, out_dtype=pl.FP32)
            d_n = pl.matmul(lhs, rhs2_n, out_dtype=pl.FP32)
            e_n = pl.add(c_n, d_n)
            result = pl.yield_(pl.assemble(acc, e_n, [0, n]))
        return result

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        rhs: pl.Tensor[[128, 256], pl.BF16],
        rhs2: pl.Tensor[[128, 256], pl.BF16],
        out: pl.Out[pl.Tensor[[16, 256], pl.FP32]],
    ) -> pl.Tensor[[16, 256], pl.FP32]:
        fresh_lhs = pl.create_tensor([16, 128], dtype=pl.BF16)
        result = self.kernel(fresh_lhs, rhs, rhs2, out)
        return result
