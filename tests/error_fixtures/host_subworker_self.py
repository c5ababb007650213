import pl


@pl.program
class K:
    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def check(self, x: pl.Tensor[[8], pl.FP32]):  # error: SubWorker function 'check' must not declare 'self'  # error-col: 9
        assert x is not None

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        self.check(x)
        return x
