import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        x = pl.load(a, [0, 0], [64, 64])
        t: pl.Tile[[64, 64], pl.FP16] = pl.add(x, x)  # error: has dtype fp16 but expression has dtype fp32
        out = pl.store(t, [0, 0], out)
        return out
