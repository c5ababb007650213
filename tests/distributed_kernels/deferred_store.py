"""A tensor-level `pld.remote_store` of a computed value (the conversion before inference makes
it `pld.tile.remote_store`) into the next rank's window, a notify, and a `pld.system.defer_wait`
on the rank's own signal: the task ends at once, and completes when the previous rank's
notification lands. A second round then copies each window out: rank r's output is twice rank
r-1's input."""
import pl
import pl.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class DeferredStore:
    @pl.function(type=pl.FunctionType.InCore)
    def push(
        self,
        x: pl.Tensor[[4, 16], pl.FP32],
        win: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]],
        sig: pl.InOut[pld.DistributedTensor[[1, 8], pl.INT32]],
    ):
        ctx = pld.get_comm_ctx(win)
        nxt = (pld.rank(ctx) + 1) % pld.nranks(ctx)
        doubled = pl.add(x, x)
        pld.remote_store(doubled, win, nxt, [0, 0])
        pld.system.notify(sig, nxt, [0, 0], 1, op=pld.NotifyOp.Set)
        pld.system.defer_wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)

    @pl.function(type=pl.FunctionType.InCore)
    def fetch(
        self,
        win: pld.DistributedTensor[[4, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
    ) -> pl.Tensor[[4, 16], pl.FP32]:
        t = pl.load(win, [0, 0], [4, 16])
        y = pl.store(t, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_push(
        self,
        x: pl.Tensor[[4, 16], pl.FP32],
        win: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]],
        sig: pl.InOut[pld.DistributedTensor[[1, 8], pl.INT32]],
    ):
        self.push(x, win, sig)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_fetch(
        self,
        win: pld.DistributedTensor[[4, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
    ) -> pl.Tensor[[4, 16], pl.FP32]:
        return self.fetch(win, y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        xs: pl.Tensor[[NR, 4, 16], pl.FP32],
        ys: pl.Out[pl.Tensor[[NR, 4, 16], pl.FP32]],
    ) -> pl.Tensor[[NR, 4, 16], pl.FP32]:
        wbuf = pld.alloc_window_buffer([4, 16], dtype=pl.FP32)
        sbuf = pld.alloc_window_buffer([1, 8], dtype=pl.INT32)
        win = pld.window(wbuf, [4, 16], dtype=pl.FP32)
        sig = pld.window(sbuf, [1, 8], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.chip_push(xs[r], win, sig, device=r)
        for r in pl.range(pld.world_size()):
            self.chip_fetch(win, ys[r], device=r)
        return ys
