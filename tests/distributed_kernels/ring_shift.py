"""Each rank adds its tile twice into the next rank's window slice (`pld.tile.remote_store`,
`atomic=Add`), notifies it and waits for its own notification: rank r's window then holds twice
rank r-1's input, and its output is that plus its own input (a single rank adds into itself)."""
import pl
import pl.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class RingShift:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        x: pl.Tensor[[4, 32], pl.FP32],
        y: pl.Out[pl.Tensor[[4, 32], pl.FP32]],
        data: pl.InOut[pld.DistributedTensor[[4, 32], pl.FP32]],
        signal: pl.InOut[pld.DistributedTensor[[1, 8], pl.INT32]],
    ) -> pl.Tensor[[4, 32], pl.FP32]:
        ctx = pld.get_comm_ctx(data)
        nxt = (pld.rank(ctx) + 1) % pld.nranks(ctx)
        t = pl.load(x, [0, 0], [4, 32])
        pld.tile.remote_store(t, data, nxt, [0, 0], atomic=pld.AtomicType.Add)
        pld.tile.remote_store(t, data, nxt, [0, 0], atomic=pld.AtomicType.Add)
        pld.system.notify(signal, nxt, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Eq)
        got = pl.load(data, [0, 0], [4, 32])
        y = pl.store(pl.add(got, t), [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        x: pl.Tensor[[4, 32], pl.FP32],
        y: pl.Out[pl.Tensor[[4, 32], pl.FP32]],
        data: pl.InOut[pld.DistributedTensor[[4, 32], pl.FP32]],
        signal: pl.InOut[pld.DistributedTensor[[1, 8], pl.INT32]],
    ) -> pl.Tensor[[4, 32], pl.FP32]:
        return self.step(x, y, data, signal)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        xs: pl.Tensor[[NR, 4, 32], pl.FP32],
        ys: pl.Out[pl.Tensor[[NR, 4, 32], pl.FP32]],
    ) -> pl.Tensor[[NR, 4, 32], pl.FP32]:
        buf = pld.alloc_window_buffer([4, 32], dtype=pl.FP32)
        sig = pld.alloc_window_buffer([1, 8], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            data = pld.window(buf, [4, 32], dtype=pl.FP32)
            signal = pld.window(sig, [1, 8], dtype=pl.INT32)
            self.chip(xs[r], ys[r], data, signal, device=r)
        return ys
