import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 128], pl.BF16], out: pl.Out[pl.Tensor[[16, 128], pl.BF16]]) -> pl.Tensor[[16, 128], pl.BF16]:
        x = pl.load(a, [0, 0], [16, 128])
        out = pl.store(x, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, out: pl.Out[pl.Tensor[[16, 128], pl.BF16]]) -> pl.Tensor[[16, 128], pl.BF16]:
        fresh = pl.create_tensor([16, 0], dtype=pl.BF16)  # error: every extent must be positive, got 0  # error-col: 34
        out = self.k(fresh, out)
        return out
