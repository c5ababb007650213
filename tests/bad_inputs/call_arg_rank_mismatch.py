import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 128], pl.BF16], out: pl.Out[pl.Tensor[[16, 128], pl.BF16]]) -> pl.Tensor[[16, 128], pl.BF16]:
        x = pl.load(a, [0, 0], [16, 128])
        out = pl.store(x, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[2048], pl.BF16], out: pl.Out[pl.Tensor[[16, 128], pl.BF16]]) -> pl.Tensor[[16, 128], pl.BF16]:
        out = self.k(a, out)  # error: Argument 'a' of 'k' has rank 1 but rank 2 is declared
        return out
