import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.AIV)
    def f(self, a: pl.Tile[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        r = pl.store(a, [0, 0], out)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        r = self.f(x, out)  # error: Argument 'a' of 'f' is pl.Tensor but pl.Tile is declared  # error-col: 20
        return r
