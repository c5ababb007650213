# expect: out = np.where(np.arange(64) < 32, x + y, x)
import pl


# Where only one source is valid, part_add copies that source (the result's valid region is
# the first source's).
@pl.program
class PartAddHalfValid:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        y: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 64])
        b = pl.load(y, [0, 0], [16, 64], valid_shape=[16, 32])
        r = pl.tile.part_add(a, b)
        out = pl.store(r, [0, 0], out)
        return out
