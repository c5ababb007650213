import pl
import pl.distributed as pld


@pl.program
class K:
    @pl.function(type=pl.FunctionType.Orchestration)
    def f(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        buf = pld.alloc_window_buffer(1024)  # error: can only be called in a HOST orchestrator
        return x
