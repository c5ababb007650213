# expect: out = np.concatenate([x[:3], src, x[7:]])
import pl


# Row index[k] of the input receives row k of src: rows 3..6 here.
@pl.program
class ScatterUpdateRows:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        src: pl.Tensor[[4, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 16])
        s = pl.load(src, [0, 0], [4, 16])
        k = pl.tile.ci(3, [1, 4], dtype=pl.INT32)
        r = pl.tile.scatter_update(a, k, s, dim=-2)
        out = pl.store(r, [0, 0], out)
        return out
