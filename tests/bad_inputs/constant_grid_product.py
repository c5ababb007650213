import pl

# Each list is short enough; the product is 10^8 items, one IR constant each where a kernel uses it.
GRID = [[0] * 10000] * 10000


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 64])
        g = GRID  # error: more than 65536 items in all
        out = pl.store(t, [0, 0], out)
        return out
