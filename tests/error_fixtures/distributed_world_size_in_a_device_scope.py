import pl
import pl.distributed as pld


@pl.program
class K:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            n = pld.world_size()  # error: cannot be called inside an InCore or SPMD scope
        return x
