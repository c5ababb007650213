"""A `pld.system.defer_wait` no rank satisfies: the task runs to its end, where its completion
waits; the interpreter stops there, at the defer_wait, rather than hang."""
import pl
import pl.distributed as pld


@pl.program
class DeferredForever:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, signal: pl.InOut[pld.DistributedTensor[[2, 8], pl.INT32]]):
        pld.system.defer_wait(signal, [1, 0], 1, cmp=pld.WaitCmp.Ge)  # interpret-error: held at the end of the task

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, signal: pl.InOut[pld.DistributedTensor[[2, 8], pl.INT32]]):
        self.step(signal)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        buf = pld.alloc_window_buffer([2, 8], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            signal = pld.window(buf, [2, 8], dtype=pl.INT32)
            self.chip(signal, device=r)
