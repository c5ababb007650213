import pl


@pl.program
class P:
    @pl.function
    def kernel(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[64], pl.FP32]):
        self.kernel(x, device=0)  # error: Function 'kernel' does not take 'device'  # error-col: 24
        return 0
