import pl
import pl.distributed as pld


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16, 64], pl.FP32], d: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]], peer: pl.Scalar[pl.INT32]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 64])
        pld.tile.remote_store(t, d, peer, [8, 0])  # error: writes past the end of dimension 0
        return d
