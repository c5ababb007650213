import pl


# The caller passes one tensor as both the In `a` and the Out `out` of an InCore function, which
# reads `a` whole again after writing `out`: the second read sees the first write, so `a` is
# loaded where each read stands, not once at function entry.
@pl.program
class AliasInOutWhole:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.add(a, 1.0)
        out = pl.assemble(out, t, [0, 0])
        u = pl.mul(a, 2.0)
        out = pl.assemble(out, u, [0, 0])
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.InOut[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        x = self.kernel(x, x)
        return x
