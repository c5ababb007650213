import pl
import pl.distributed as pld


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16, 16], pl.FP32], peer: pl.Scalar[pl.INT32]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pld.tile.remote_load(x, peer, [0, 0], [16, 16])  # error: expects a pld.DistributedTensor target (window-bound), got TensorType
        return x
