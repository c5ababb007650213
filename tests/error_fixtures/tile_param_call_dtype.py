import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.AIV)
    def f(self, a: pl.Tile[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        r = pl.store(a, [0, 0], out)
        return r

    @pl.function(type=pl.FunctionType.AIV)
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [64, 64])
        r = self.f(t, out)  # error: Argument 'a' of 'f' has dtype fp16 but fp32 is declared  # error-col: 20
        return r
