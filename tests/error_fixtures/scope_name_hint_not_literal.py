import pl

HINT = "fused"


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, a: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        return a

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        with pl.spmd(4, name_hint=HINT):  # error: pl.spmd() 'name_hint' argument must be a string literal  # error-col: 35
            b = self.step(a)
        return b
