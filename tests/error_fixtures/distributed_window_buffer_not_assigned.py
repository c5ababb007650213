import pl
import pl.distributed as pld


@pl.program
class K:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        a, b = pld.alloc_window_buffer(8), 0  # error: must appear as the right-hand side of a simple assignment
        return x
