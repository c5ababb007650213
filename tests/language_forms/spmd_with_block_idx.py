# printed: with pl.spmd(2, optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
import pl


@pl.program
class K:
    @pl.function
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        # Outside any pl.spmd the code runs as block 0 of 1.
        first = pl.tile.get_block_idx()
        t0: pl.Tile[[8, 16], pl.FP32] = pl.load(x, [first * 8, 0], [8, 16])
        out = pl.store(t0, [8, 0], out)
        with pl.spmd(2, optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
            b = pl.tile.get_block_idx()
            t: pl.Tile[[4, 16], pl.FP32] = pl.load(x, [b * 4, 0], [4, 16])
            out = pl.store(pl.add(t, t), [b * 4, 0], out)
        return out
