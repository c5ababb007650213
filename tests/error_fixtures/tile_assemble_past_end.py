import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 64])
        s = pl.load(x, [0, 0], [8, 64])
        u = pl.tile.assemble(t, s, [12, 0])  # error: tile.assemble writes past the end of dimension 0: offset 12 + extent 8 exceeds the target extent 16
        return pl.store(u, [0, 0], x)
