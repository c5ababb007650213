"""A dispatch to a device past the run's ranks is refused at the dispatch."""
import pl
import pl.distributed as pld


@pl.program
class DeviceOutside:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, signal: pl.InOut[pld.DistributedTensor[[2, 8], pl.INT32]]):
        pld.system.notify(signal, 0, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, signal: pl.InOut[pld.DistributedTensor[[2, 8], pl.INT32]]):
        self.step(signal)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        buf = pld.alloc_window_buffer([2, 8], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            signal = pld.window(buf, [2, 8], dtype=pl.INT32)
            self.chip(signal, device=r + 1)  # interpret-error: device=2, but the run has 2 ranks
