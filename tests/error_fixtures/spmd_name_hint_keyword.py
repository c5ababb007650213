import pl


@pl.program
class Named:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, x: pl.Tensor[[16], pl.FP32], y: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        t = pl.load(x, [0], [16])
        return pl.store(t, [0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16], pl.FP32], y: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        with pl.spmd(4, name_hint="lambda"):  # error: pl.spmd() 'name_hint' must be a valid non-keyword identifier, got 'lambda'  # error-col: 35
            y = self.step(x, y)
        return y
