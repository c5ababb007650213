"""A window dispatched to rank 0 only of a run of 2: what `pld.nranks` means in a domain of some
ranks is not modelled, so the dispatch is refused, located."""
import pl
import pl.distributed as pld


@pl.program
class SomeRanks:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, signal: pl.InOut[pld.DistributedTensor[[2, 8], pl.INT32]]):
        pld.system.notify(signal, 0, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, signal: pl.InOut[pld.DistributedTensor[[2, 8], pl.INT32]]):
        self.step(signal)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        buf = pld.alloc_window_buffer([2, 8], dtype=pl.INT32)
        signal = pld.window(buf, [2, 8], dtype=pl.INT32)
        self.chip(signal, device=0)  # interpret-error: a window reaches ranks [0] of the run's 2
