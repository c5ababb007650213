"""Two tasks dispatched to each rank in one loop iteration: a rank runs its tasks in dispatch
order while the ranks run at once. Rank r's first task stores its input into the next rank's
window, notifies it and waits for the previous rank's notification (which that rank's first
task sends); its second task copies its window out. Rank r's output is rank r-1's input."""
import pl
import pl.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class TwoTasksPerRank:
    @pl.function(type=pl.FunctionType.InCore)
    def send(
        self,
        x: pl.Tensor[[2, 16], pl.FP32],
        win: pl.InOut[pld.DistributedTensor[[2, 16], pl.FP32]],
        sig: pl.InOut[pld.DistributedTensor[[1, 8], pl.INT32]],
    ):
        ctx = pld.get_comm_ctx(win)
        nxt = (pld.rank(ctx) + 1) % pld.nranks(ctx)
        t = pl.load(x, [0, 0], [2, 16])
        pld.tile.remote_store(t, win, nxt, [0, 0])
        pld.system.notify(sig, nxt, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)

    @pl.function(type=pl.FunctionType.InCore)
    def fetch(
        self,
        win: pld.DistributedTensor[[2, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[2, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 16], pl.FP32]:
        t = pl.load(win, [0, 0], [2, 16])
        y = pl.store(t, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_send(
        self,
        x: pl.Tensor[[2, 16], pl.FP32],
        win: pl.InOut[pld.DistributedTensor[[2, 16], pl.FP32]],
        sig: pl.InOut[pld.DistributedTensor[[1, 8], pl.INT32]],
    ):
        self.send(x, win, sig)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_fetch(
        self,
        win: pld.DistributedTensor[[2, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[2, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 16], pl.FP32]:
        return self.fetch(win, y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        xs: pl.Tensor[[NR, 2, 16], pl.FP32],
        ys: pl.Out[pl.Tensor[[NR, 2, 16], pl.FP32]],
    ) -> pl.Tensor[[NR, 2, 16], pl.FP32]:
        wbuf = pld.alloc_window_buffer([2, 16], dtype=pl.FP32)
        sbuf = pld.alloc_window_buffer([1, 8], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            win = pld.window(wbuf, [2, 16], dtype=pl.FP32)
            sig = pld.window(sbuf, [1, 8], dtype=pl.INT32)
            self.chip_send(xs[r], win, sig, device=r)
            self.chip_fetch(win, ys[r], device=r)
        return ys
