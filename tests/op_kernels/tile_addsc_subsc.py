# expect: out = ((x + np.float32(1.5)) + y - np.float32(0.5)) - z
import pl


@pl.program
class AddScSubSc:
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
        r = pl.tile.subsc(pl.tile.addsc(a, 1.5, b), 0.5, c)
        out = pl.store(r, [0, 0], out)
        return out
