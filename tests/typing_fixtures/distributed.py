"""The distributed module type-checks: window-bound tensors are tensors, the `pld.*` ops take
them and give their results' kinds (a tile from `pld.remote_load`, a scalar from `pld.rank`)."""

# ruff: noqa: F841  (fixtures bind names only to show their types)

import pl
import pl.distributed as pld


@pl.program
class Distributed:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]],
        signal: pl.InOut[pld.DistributedTensor[[1, 8], pl.INT32]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        peer: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        ctx: pld.CommCtx = pld.get_comm_ctx(data)
        me: pl.Scalar[pl.INT32] = pld.rank(ctx)
        pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pld.tile.remote_load(data, peer, [0, 0], [16, 64])
        pld.tile.remote_store(t, data, me, [0, 0], atomic=pld.AtomicType.Add)
        out = pl.store(t, [0, 0], out)
        pld.tile.remote_load(data, peer, [0, 0])  # E: Missing positional argument "shape" in call to "remote_load"
        return out
