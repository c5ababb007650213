import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 64])
        for i in pl.unroll(1024):  # error: expand to more than 65536 statements in all
            for j in pl.unroll(1024):
                for k in pl.unroll(1024):
                    t = pl.add(t, t)
        out = pl.store(t, [0, 0], out)
        return out
