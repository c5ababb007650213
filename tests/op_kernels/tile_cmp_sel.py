# expect: out = np.where(x >= np.float32(0.25), np.minimum(x, y), np.float32(-1.0))
import pl


# tile.cmp / tile.cmps pack one bit per column; tile.sel / tile.sels read them back.
@pl.program
class CmpSel:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        y: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 64])
        b = pl.load(y, [0, 0], [16, 64])
        tmp = pl.tile.create([1, 32], dtype=pl.UINT8)
        lt = pl.tile.cmp(a, b, cmp_type=2)
        smaller = pl.tile.sel(lt, a, b, tmp)
        ge = pl.tile.cmps(a, 0.25, cmp_type=5)
        r = pl.tile.sels(ge, smaller, tmp, -1.0)
        out = pl.store(r, [0, 0], out)
        return out
