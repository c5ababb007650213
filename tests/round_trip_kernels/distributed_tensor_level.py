"""Tensor-level distributed ops in an InCore function: `pld.remote_store` of a computed tensor
becomes `pld.tile.remote_store` of its tile (the reference's ConvertTensorToTileOps converts it
1:1; a source still in GM is loaded whole into Vec first); a view of a window-bound tensor is
window-bound too (`pld.system.wait` takes it); the collectives and `pld.get_comm_ctx` /
`pld.rank` keep their operands as written."""
import pl
import pl.distributed as pld


@pl.program
class TensorLevel:
    @pl.function(type=pl.FunctionType.InCore)
    def push(
        self,
        x: pl.Tensor[[16, 64], pl.FP16],
        data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP16]],
        signal: pl.InOut[pld.DistributedTensor[[4, 8], pl.INT32]],
        peer: pl.Scalar[pl.INT32],
    ) -> pld.DistributedTensor[[16, 64], pl.FP16]:
        ctx: pld.CommCtx = pld.get_comm_ctx(data)
        me = pld.rank(ctx)
        scaled = pl.add(x, x)
        pld.remote_store(scaled, data, peer, [0, 0])
        pld.remote_store(x, data, me, [0, 0])
        row = pl.tensor.slice(signal, [1, 8], [1, 0])
        pld.system.wait(row, [0, 0], 1, cmp=pld.WaitCmp.Eq)
        data = pld.tensor.allreduce(data, signal, op=pld.ReduceOp.Max)
        return data
