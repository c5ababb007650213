import pl
import pl.distributed as pld


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, d: pl.InOut[pld.DistributedTensor[[2, 64], pl.FP32]], s: pl.InOut[pld.DistributedTensor[[2, 1], pl.FP32]]) -> pl.Tensor[[2, 64], pl.FP32]:
        d = pld.tensor.reduce_scatter(d, s, op=pld.ReduceOp.Sum)  # error: requires an INT32 signal
        return d
