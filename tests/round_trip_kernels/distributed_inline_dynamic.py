"""A dynamic dim written in the shape itself (`pl.dynamic("NR")` inline, as the reference's
per-rank host orchestrators declare their rank dimension): both parameters share the one dim
`NR`, and the printed text, which names it `NR`, reads back the same program."""
import pl
import pl.distributed as pld


@pl.program
class InlineDynamic:
    @pl.function(type=pl.FunctionType.InCore)
    def add_one(self, x: pl.Tensor[[16, 32], pl.FP32], y: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 32])
        y = pl.store(pl.add(t, 1.0), [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def child(self, x: pl.Tensor[[16, 32], pl.FP32], y: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        y = self.add_one(x, y)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[pl.dynamic("NR"), 16, 32], pl.FP32], y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 16, 32], pl.FP32]]):
        for r in pl.range(pld.world_size()):
            self.child(x[r], y[r], device=r)
