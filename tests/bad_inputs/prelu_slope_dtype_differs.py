import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16, 64], pl.FP32], s: pl.Tensor[[16, 64], pl.FP16],
          out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 64])
        b = pl.load(s, [0, 0], [16, 64])
        tmp = pl.create_tile([32, 32], dtype=pl.UINT8)
        r = pl.prelu(a, b, tmp)  # error: requires slope dtype to match input dtype
        out = pl.store(r, [0, 0], out)
        return out
