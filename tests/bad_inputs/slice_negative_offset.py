import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        s = pl.slice(x, [16, 64], [0, -1])  # error: provably negative
        out = pl.assemble(out, s, [0, 0])
        return out
