# expect: out = np.tril(np.ones((16, 16), dtype=np.float32), 1) * np.triu(np.ones((16, 16), dtype=np.float32), -2) * x
import pl


# A band: the lower triangle up to diagonal 1 times the upper triangle from diagonal -2.
@pl.program
class Band:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 16])
        lower = pl.tile.tri(1, [16, 16], dtype=pl.FP32)
        upper = pl.tile.tri(-2, [16, 16], dtype=pl.FP32, upper=True)
        r = pl.tile.mul(pl.tile.mul(a, lower), upper)
        out = pl.store(r, [0, 0], out)
        return out
