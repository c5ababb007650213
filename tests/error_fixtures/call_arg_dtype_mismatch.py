import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[64, 64], pl.BF16], out: pl.Out[pl.Tensor[[64, 64], pl.BF16]]) -> pl.Tensor[[64, 64], pl.BF16]:
        x = pl.load(a, [0, 0], [64, 64])
        out = pl.store(x, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.BF16]]) -> pl.Tensor[[64, 64], pl.BF16]:
        out = self.k(a, out)  # error: Argument 'a' of 'k' has dtype fp32 but bf16 is declared  # error-col: 22
        return out
