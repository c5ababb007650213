# expect: out[:, :] = x[:, 0:64] + 1
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 128], pl.FP32],
               out: pl.InOut[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 128])
        half = pl.tile.slice(t, [16, 64], [0, 0])
        flat = pl.tile.reshape(pl.add(half, 1.0), [1024])
        # a 1-D tile of 1024 elements written row-major over the contiguous [16, 64] tensor
        out = pl.store(flat, [0, 0], out)
        return out
