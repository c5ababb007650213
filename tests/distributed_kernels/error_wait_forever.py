"""Every rank waits for 2 notifications where each peer sends one: on the device the ranks hang;
the interpreter stops at the wait, naming what every rank waits for."""
import pl
import pl.distributed as pld


@pl.program
class WaitForever:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, signal: pl.InOut[pld.DistributedTensor[[2, 8], pl.INT32]]):
        ctx = pld.get_comm_ctx(signal)
        me = pld.rank(ctx)
        pld.system.notify(signal, (me + 1) % pld.nranks(ctx), [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], 2, cmp=pld.WaitCmp.Ge)  # interpret-error: the ranks wait for each other forever: rank

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, signal: pl.InOut[pld.DistributedTensor[[2, 8], pl.INT32]]):
        self.step(signal)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        buf = pld.alloc_window_buffer([2, 8], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            signal = pld.window(buf, [2, 8], dtype=pl.INT32)
            self.chip(signal, device=r)
