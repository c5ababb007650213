import pl
import pl.distributed as pld


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, s: pl.InOut[pld.DistributedTensor[[4], pl.INT32]]) -> pl.Tensor[[4], pl.INT32]:
        pld.system.defer_wait(s, [0], 1, cmp=pld.WaitCmp.Eq)  # error: only supports WaitCmp.Ge
        return s
