import pl


# InCore functions returning a view of their parameter (`pl.slice`, `pl.reshape`): the caller's
# result names the parameter's storage, so the writes through it reach `buf` and `y`.
@pl.program
class ReturnedViewOfParam:
    @pl.function(type=pl.FunctionType.InCore)
    def left(self, a: pl.Tensor[[16, 128], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        v = pl.slice(a, [16, 64], [0, 64])
        return v

    @pl.function(type=pl.FunctionType.InCore)
    def flat(self, a: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[64, 16], pl.FP32]:
        return pl.reshape(a, [64, 16])

    @pl.function(type=pl.FunctionType.InCore)
    def twice(
        self, a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        out = pl.assemble(out, pl.add(a, a), [0, 0])
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        buf: pl.InOut[pl.Tensor[[16, 128], pl.FP32]],
        x: pl.Tensor[[16, 64], pl.FP32],
        y: pl.InOut[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        v = self.left(buf)
        v = self.twice(x, v)
        f = self.flat(y)
        f = pl.assemble(f, pl.reshape(x, [64, 16]), [0, 0])
        return buf
