import pl
import pl.distributed as pld


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, s: pl.InOut[pld.DistributedTensor[[4, 8], pl.INT32]], peer: pl.Scalar[pl.INT32]) -> pl.Tensor[[4, 8], pl.INT32]:
        pld.system.notify(s, peer, [0], 1, op=pld.NotifyOp.Set)  # error: requires one offset per dimension of target (2), but got 1
        return s
