import pl


# An InCore function returning a view of its parameter bound as an item of a tuple (`v, w =
# pl.slice(a, ..), a`): the caller's result names the parameter's storage, so the write through
# it reaches `buf`.
@pl.program
class ReturnedViewThroughATuple:
    @pl.function(type=pl.FunctionType.InCore)
    def left(self, a: pl.Tensor[[16, 128], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        v, w = pl.slice(a, [16, 64], [0, 64]), a  # noqa: F841
        return v

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
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        v = self.left(buf)
        v = self.twice(x, v)
        return buf
