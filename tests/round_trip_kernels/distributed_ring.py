"""The distributed module (`import pl.distributed as pld`): a host orchestrator allocates two
communication windows and dispatches one chip per rank (`device=r`), each given its slice of the
windows (`pld.window`); the InCore function pushes a tile to its peer (`pld.tile.remote_store`),
signals it (`pld.system.notify`), waits for its own signal and reads the peer's slice back
(`pld.tile.remote_load`, a tile inference places in Vec). The shape form of
`pld.alloc_window_buffer` gives the size in bytes, and each window takes the name of the variable
it is assigned to (no kwarg, as in the reference)."""
import pl
import pl.distributed as pld


@pl.program
class Ring:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]],
        signal: pl.InOut[pld.DistributedTensor[[1, 8], pl.INT32]],
        peer: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(data, [0, 0], [16, 64])
        pld.tile.remote_store(t, data, peer, [0, 0], atomic=pld.AtomicType.Add)
        pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        r = pld.remote_load(data, peer, [0, 0], [16, 64])
        out = pl.store(pl.add(t, r), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]],
        signal: pl.InOut[pld.DistributedTensor[[1, 8], pl.INT32]],
        peer: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        return self.step(out, data, signal, peer)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, outs: pl.Out[pl.Tensor[[2, 16, 64], pl.FP32]]) -> pl.Tensor[[2, 16, 64], pl.FP32]:
        buf = pld.alloc_window_buffer(16 * 64 * pl.FP32.get_byte())
        sig = pld.alloc_window_buffer([1, 8], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            data = pld.window(buf, [16, 64], dtype=pl.FP32)
            signal = pld.window(sig, [1, 8], dtype=pl.INT32)
            self.chip(outs[r], data, signal, (r + 1) % pld.world_size(), device=r)
        return outs
