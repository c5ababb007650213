"""`pld.tensor.put` of a region and `pld.tensor.get` of a whole slice, ordered by
`pld.tensor.barrier`: each rank puts rows 4..7 of its input into rows 0..3 of the next rank's
window slice; after the barrier it gets the previous rank's whole slice. Rank r's output is rows
4..7 of rank r-2's input, then four zero rows (the part of the window nobody wrote)."""
import pl
import pl.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class PutGet:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
        win: pl.InOut[pld.DistributedTensor[[8, 16], pl.FP32]],
        sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
    ) -> pl.Tensor[[8, 16], pl.FP32]:
        ctx = pld.get_comm_ctx(win)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        pld.tensor.put(win, (me + 1) % n, x, [0, 0], [4, 0], [4, 16])
        sig = pld.tensor.barrier(sig)
        pld.tensor.get(y, (me + n - 1) % n, win)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
        win: pl.InOut[pld.DistributedTensor[[8, 16], pl.FP32]],
        sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
    ) -> pl.Tensor[[8, 16], pl.FP32]:
        return self.step(x, y, win, sig)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        xs: pl.Tensor[[NR, 8, 16], pl.FP32],
        ys: pl.Out[pl.Tensor[[NR, 8, 16], pl.FP32]],
    ) -> pl.Tensor[[NR, 8, 16], pl.FP32]:
        buf = pld.alloc_window_buffer([8, 16], dtype=pl.FP32)
        sbuf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())
        for r in pl.range(pld.world_size()):
            win = pld.window(buf, [8, 16], dtype=pl.FP32)
            sig = pld.window(sbuf, [pld.world_size(), 1], dtype=pl.INT32)
            self.chip(xs[r], ys[r], win, sig, device=r)
        return ys
