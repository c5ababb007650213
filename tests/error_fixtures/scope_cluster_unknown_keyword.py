import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, a: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        return a

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        with pl.cluster(level=pl.Level.CORE_GROUP):  # error: Unknown keyword argument 'level' in pl.cluster()  # error-col: 25
            b = self.step(a)
        return b
