import pl
import pl.distributed as pld


@pl.program
class K:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        buf = pld.alloc_window_buffer(8, name="other")  # error: the 'name' kwarg cannot be passed explicitly
        return x
