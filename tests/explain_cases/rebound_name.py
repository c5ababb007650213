# One name, two bindings in two spaces: `t` in Acc (a matmul), then in Vec (an exp of its move);
# --explain and --json name each binding as the regenerated file does (t_acc, t_vec).
import pl


@pl.program
class ReboundT:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 32], pl.FP16],
        b: pl.Tensor[[32, 16], pl.FP16],
        c: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.matmul(a, b, out_dtype=pl.FP32)
        t = pl.exp(t)
        c = pl.assemble(c, t, [0, 0])
        return c
