# expect: out = np.concatenate([np.zeros((4, 64), np.int32), np.ones((4, 64), np.int32)], axis=1)
import pl


# The counter RNG is deterministic (the same keys and counter give the same tile: the
# difference is 0) and draws differ between neighbouring elements (the right half counts
# each element with its right-hand neighbour, whose counter is one higher: 1 means they differ).
@pl.program
class Random:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[4, 64], pl.INT32],
        out: pl.Out[pl.Tensor[[4, 128], pl.INT32]],
    ) -> pl.Tensor[[4, 128], pl.INT32]:
        a = pl.tile.random(0x1234, 0x5678, 1, 2, 3, 4, [4, 64], dtype=pl.INT32)
        b = pl.tile.random(0x1234, 0x5678, 1, 2, 3, 4, [4, 64], dtype=pl.INT32)
        c = pl.tile.random(0x1234, 0x5678, 2, 2, 3, 4, [4, 64], dtype=pl.INT32)
        same = pl.tile.sub(a, b)
        shifted = pl.tile.cmp(a, c, cmp_type=1)
        ones = pl.tile.full([4, 64], dtype=pl.INT32, value=1)
        zeros = pl.tile.full([4, 64], dtype=pl.INT32, value=0)
        tmp = pl.tile.create([1, 32], dtype=pl.UINT8)
        differ = pl.tile.sel(shifted, ones, zeros, tmp)
        out = pl.store(same, [0, 0], out)
        out = pl.store(differ, [0, 64], out)
        return out
