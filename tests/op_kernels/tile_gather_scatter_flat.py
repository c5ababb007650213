# expect: out = np.concatenate([x.reshape(-1)[ix & 127].reshape(4, 32), x.reshape(-1)[::-1].reshape(4, 32)])
import pl


# tile.gather reads src.flat[indices]; tile.scatter writes dst.flat[indexes] = src (here the
# reversal permutation, so no element is written twice).
@pl.program
class GatherScatterFlat:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[4, 32], pl.FP32],
        ix: pl.Tensor[[4, 32], pl.INT32],
        out: pl.Out[pl.Tensor[[8, 32], pl.FP32]],
    ) -> pl.Tensor[[8, 32], pl.FP32]:
        src = pl.load(x, [0, 0], [4, 32])
        raw = pl.load(ix, [0, 0], [4, 32])
        k = pl.tile.ands(raw, 127)
        tmp = pl.tile.create([4, 32], dtype=pl.INT32)
        g = pl.tile.gather(src, k, tmp)
        down = pl.tile.ci(127, [1, 128], dtype=pl.INT32, descending=True)
        rev = pl.tile.reshape(down, [4, 32])
        base = pl.tile.full([4, 32], dtype=pl.FP32, value=0.0)
        s = pl.tile.scatter(base, src, rev)
        out = pl.store(g, [0, 0], out)
        out = pl.store(s, [4, 0], out)
        return out
