# expect: out = np.tril(np.ones((16, 16), dtype=np.float32), 1) * x
import pl


@pl.program
class LowerTriangle:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 16])
        m = pl.tile.tri(1, [16, 16], dtype=pl.FP32)
        r = pl.tile.mul(a, m)
        out = pl.store(r, [0, 0], out)
        return out
