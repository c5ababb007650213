# expect: out = (x < y).astype(np.float32) + (x >= np.float32(0.25)).astype(np.float32)
import pl


# A tensor-rhs compare (lt) plus a scalar-rhs compare (ge): 0/1 in lhs's dtype.
@pl.program
class TensorCmp:
    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        y: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        lt = pl.tensor.cmp(x, y, cmp_type=2)
        ge = pl.tensor.cmp(x, 0.25, cmp_type=5)
        r = pl.tensor.add(lt, ge)
        out = pl.assemble(out, r, [0, 0])
        return out
