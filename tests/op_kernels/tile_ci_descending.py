# expect: out = (np.int32(3) - np.arange(32, dtype=np.int32)).reshape(1, 32) + x
import pl


@pl.program
class ArangeDown:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[1, 32], pl.INT32],
        out: pl.Out[pl.Tensor[[1, 32], pl.INT32]],
    ) -> pl.Tensor[[1, 32], pl.INT32]:
        a = pl.load(x, [0, 0], [1, 32])
        r = pl.tile.ci(3, [1, 32], dtype=pl.INT32, descending=True)
        s = pl.tile.add(r, a)
        out = pl.store(s, [0, 0], out)
        return out
