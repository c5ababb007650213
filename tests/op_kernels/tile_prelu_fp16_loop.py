# expect: out = np.where(x > 0, x, x * slope)
import pl


@pl.program
class PreluRows:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[32, 128], pl.FP16],
        slope: pl.Tensor[[32, 128], pl.FP16],
        out: pl.Out[pl.Tensor[[32, 128], pl.FP16]],
    ) -> pl.Tensor[[32, 128], pl.FP16]:
        for i in pl.range(2):
            a = pl.tile.load(x, [i * 16, 0], [16, 128])
            s = pl.tile.load(slope, [i * 16, 0], [16, 128])
            tmp = pl.create_tile([32, 32], dtype=pl.UINT8)
            r = pl.tile.prelu(a, s, tmp)
            out = pl.store(r, [i * 16, 0], out)
        return out
