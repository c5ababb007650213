import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP16]:
        x = pl.load(a, [0, 0], [64, 64])
        out = pl.store(x, [0, 0], out)
        return out  # error: Returned value has dtype fp32 but fp16 is declared
