"""The reference's hand-rolled barrier (examples/distributed/04_barrier.py, as a program): every
rank notifies every peer at its own row of the peer's signal window (`offsets=[my_rank, 0]`) and
waits for every peer's row, then copies its signal window out element by element. Rank r's
output is 1 at every row but its own, which stays 0 (a rank never notifies itself)."""
import pl
import pl.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BarrierTally:
    @pl.function(type=pl.FunctionType.InCore)
    def tally(
        self,
        y: pl.Out[pl.Tensor[[NR, 1], pl.INT32]],
        signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
    ) -> pl.Tensor[[NR, 1], pl.INT32]:
        ctx = pld.get_comm_ctx(signal)
        my_rank = pld.rank(ctx)
        n = pld.nranks(ctx)
        for peer in pl.range(n):
            if peer != my_rank:
                pld.system.notify(signal, peer=peer, offsets=[my_rank, 0], value=1,
                                  op=pld.NotifyOp.AtomicAdd)
        for src in pl.range(n):
            if src != my_rank:
                pld.system.wait(signal, offsets=[src, 0], expected=1, cmp=pld.WaitCmp.Ge)
        for i in pl.range(n):
            pl.write(y, [i, 0], pl.read(signal, [i, 0]))
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        y: pl.Out[pl.Tensor[[NR, 1], pl.INT32]],
        signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
    ) -> pl.Tensor[[NR, 1], pl.INT32]:
        return self.tally(y, signal)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, ys: pl.Out[pl.Tensor[[NR, NR, 1], pl.INT32]]) -> pl.Tensor[[NR, NR, 1], pl.INT32]:
        buf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())
        for r in pl.range(pld.world_size()):
            signal = pld.window(buf, [pld.world_size(), 1], dtype=pl.INT32)
            self.chip(ys[r], signal, device=r)
        return ys
