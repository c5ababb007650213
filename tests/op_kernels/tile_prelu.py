# expect: out = np.where(x > 0, x, x * slope)
import pl


@pl.program
class Prelu:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        slope: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 64])
        s = pl.load(slope, [0, 0], [16, 64])
        # The A2/A3 lowering wants a UINT8 scratch of >= 17 rows and >= ceil(64 / 8) columns.
        tmp = pl.create_tile([32, 32], dtype=pl.UINT8)
        r = pl.prelu(a, s, tmp)
        out = pl.store(r, [0, 0], out)
        return out
