# expect: out = ((np.arange(64) + 5) * (3 - np.arange(64))).astype(np.int32).reshape(1, 64) + 0 * x
import pl


# Ascending from 5 times descending from 3: each direction shows in the product.
@pl.program
class Arange:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[1, 64], pl.INT32],
        out: pl.Out[pl.Tensor[[1, 64], pl.INT32]],
    ) -> pl.Tensor[[1, 64], pl.INT32]:
        up = pl.tile.ci(5, [1, 64], dtype=pl.INT32)
        down = pl.tile.ci(3, [1, 64], dtype=pl.INT32, descending=True)
        r = pl.tile.mul(up, down)
        out = pl.store(r, [0, 0], out)
        return out
