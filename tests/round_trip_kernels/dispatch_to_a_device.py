import pl


# A host orchestrator dispatches an orchestration function to a device: `device=` names it, a
# constant or a loop index, and is kept on the call (printed back as the same keyword).
@pl.program
class DispatchToADevice:
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[64], pl.FP32]):
        for d in pl.range(2):
            self.orch(x, device=d)
        self.orch(x, device=1)
        return 0
