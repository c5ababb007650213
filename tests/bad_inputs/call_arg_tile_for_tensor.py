import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        x = pl.load(a, [0, 0], [64, 64])
        out = pl.store(x, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def main(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [64, 64])
        out = self.k(t, out)  # error: Argument 'a' of 'k' is pl.Tile but pl.Tensor is declared
        return out
