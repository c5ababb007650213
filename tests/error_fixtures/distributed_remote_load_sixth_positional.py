import pl
import pl.distributed as pld


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, d: pl.InOut[pld.DistributedTensor[[64], pl.FP32]], peer: pl.Scalar[pl.INT32]) -> pl.Tensor[[64], pl.FP32]:
        t = pld.tile.remote_load(d, peer, [0], [32], [32], True)  # error: positional argument
        return d
