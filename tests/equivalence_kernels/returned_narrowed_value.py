import pl


# An InCore function returning a value whose type declares a narrower valid region stores only
# that region into its output: the caller sees the rest as the fresh output's zeros, for a
# computed value and for a narrowed view of a parameter alike.
@pl.program
class ReturnedNarrowedValue:
    @pl.function(type=pl.FunctionType.InCore)
    def computed(self, a: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        s = pl.slice(a, [16, 64], [0, 0], valid_shape=[8, 64])
        t = pl.add(s, 1.0)
        return t

    @pl.function(type=pl.FunctionType.InCore)
    def view(self, a: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        return pl.slice(a, [16, 64], [0, 0], valid_shape=[8, 64])

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        t = self.computed(a)
        v = self.view(a)
        out = pl.assemble(out, t, [0, 0])
        out = pl.assemble(out, v, [0, 64])
        return out
