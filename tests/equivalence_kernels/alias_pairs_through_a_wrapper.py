import pl


# Two call sites of `wrap` alias its Out `r` with `p` and with `q`: inside `wrap` all three may
# be one tensor, so the call of `kernel` aliases `kernel`'s `a` and `b` with its Out `out`, and
# `kernel` reads both where the source does, after its first write.
@pl.program
class AliasPairsThroughAWrapper:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 64], pl.FP32],
        b: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        out = pl.assemble(out, pl.add(a, 1.0), [0, 0])
        out = pl.assemble(out, pl.add(pl.mul(a, 2.0), b), [0, 0])
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def wrap(
        self,
        p: pl.Tensor[[16, 64], pl.FP32],
        q: pl.Tensor[[16, 64], pl.FP32],
        r: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        r = self.kernel(p, q, r)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.InOut[pl.Tensor[[16, 64], pl.FP32]],
        y: pl.InOut[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        x = self.wrap(x, y, x)
        y = self.wrap(x, y, y)
        return y
