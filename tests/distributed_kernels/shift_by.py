"""`pld.tile.put` and `pld.tile.get`, staged through a Vec tile, around a `pld.tensor.barrier`,
with the shift a host scalar: rank r puts its input into rank r+k's window slice, then gets rank
r+1's slice. Rank r's output is rank (r+1-k)'s input (ranks counted modulo the run's)."""
import pl
import pl.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class ShiftBy:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        x: pl.Tensor[[4, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
        win: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]],
        sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        k: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[4, 16], pl.FP32]:
        ctx = pld.get_comm_ctx(win)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        stage = pl.tile.create([4, 16], pl.FP32, target_memory=pl.MemorySpace.Vec)
        pld.tile.put(win, (me + k) % n, x, stage)
        sig = pld.tensor.barrier(sig)
        pld.tile.get(y, (me + 1) % n, win, stage)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        x: pl.Tensor[[4, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
        win: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]],
        sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        k: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[4, 16], pl.FP32]:
        return self.step(x, y, win, sig, k)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        xs: pl.Tensor[[NR, 4, 16], pl.FP32],
        ys: pl.Out[pl.Tensor[[NR, 4, 16], pl.FP32]],
        k: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[NR, 4, 16], pl.FP32]:
        wbuf = pld.alloc_window_buffer([4, 16], dtype=pl.FP32)
        sbuf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())
        for r in pl.range(pld.world_size()):
            win = pld.window(wbuf, [4, 16], dtype=pl.FP32)
            sig = pld.window(sbuf, [pld.world_size(), 1], dtype=pl.INT32)
            self.chip(xs[r], ys[r], win, sig, k, device=r)
        return ys
