"""A collective on the host between two rounds of dispatches: each rank stages its input into its
window slice; the host's `pld.tensor.allreduce` (no signal: the reference synthesises one) sums
every rank's slice; a second round copies each rank's slice to its output. Every rank's output
is the sum of all inputs; the host sees each round finished before its next statement."""
import pl
import pl.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class HostAllReduce:
    @pl.function(type=pl.FunctionType.InCore)
    def stage(
        self,
        x: pl.Tensor[[2, 16], pl.FP32],
        win: pl.InOut[pld.DistributedTensor[[2, 16], pl.FP32]],
    ) -> pld.DistributedTensor[[2, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [2, 16])
        win = pl.store(t, [0, 0], win)
        return win

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
    def chip_stage(
        self,
        x: pl.Tensor[[2, 16], pl.FP32],
        win: pl.InOut[pld.DistributedTensor[[2, 16], pl.FP32]],
    ) -> pld.DistributedTensor[[2, 16], pl.FP32]:
        return self.stage(x, win)

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
        buf = pld.alloc_window_buffer([2, 16], dtype=pl.FP32)
        win = pld.window(buf, [2, 16], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            self.chip_stage(xs[r], win, device=r)
        win = pld.tensor.allreduce(win, op=pld.ReduceOp.Sum)
        for r in pl.range(pld.world_size()):
            self.chip_fetch(win, ys[r], device=r)
        return ys
