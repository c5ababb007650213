# expect: out = x * y + np.maximum(x, np.minimum(y, z))
import pl


@pl.program
class PartOps:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        y: pl.Tensor[[16, 64], pl.FP32],
        z: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 64])
        b = pl.load(y, [0, 0], [16, 64])
        c = pl.load(z, [0, 0], [16, 64])
        r = pl.tile.part_add(pl.tile.part_mul(a, b), pl.tile.part_max(a, pl.tile.part_min(b, c)))
        out = pl.store(r, [0, 0], out)
        return out
