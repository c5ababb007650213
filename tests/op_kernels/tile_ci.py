# expect: out = np.arange(5, 5 + 64, dtype=np.int32).reshape(1, 64) + 0 * x
import pl


@pl.program
class Arange:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[1, 64], pl.INT32],
        out: pl.Out[pl.Tensor[[1, 64], pl.INT32]],
    ) -> pl.Tensor[[1, 64], pl.INT32]:
        r = pl.tile.ci(5, [1, 64], dtype=pl.INT32)
        out = pl.store(r, [0, 0], out)
        return out
