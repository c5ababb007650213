import pl


# The same aliasing through a view and an orchestration wrapper: `main` passes a slice of `buf`
# as the In `a` and `buf` itself as the Out `out`; `kernel` reads `a` whole in every iteration
# after the previous one wrote `out`.
@pl.program
class AliasInOutLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        for _ in pl.range(2):
            t = pl.add(a, 1.0)
            out = pl.assemble(out, t, [0, 0])
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def wrap(
        self,
        a: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        out = self.kernel(a, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self, buf: pl.InOut[pl.Tensor[[16, 128], pl.FP32]]
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        v = pl.slice(buf, [16, 64], [0, 0])
        buf = self.wrap(v, buf)
        return buf
