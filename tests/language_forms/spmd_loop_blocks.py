# source printed: in pl.spmd(4, name_hint='rows', optimizations=[pl.cross_core_slot(slot_num=4)]):
# compiled printed: with pl.spmd(4, name_hint='rows'):
# compiled printed: with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.cross_core_slot(slot_num=4)]):
# compiled printed: = self.rows(x__ssa_v0, out__ssa_v0)
import pl


@pl.program
class K:
    @pl.function
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        # Block i of 4 takes rows 4*i .. 4*i+3 and scales them by i + the block count.
        for i in pl.spmd(4, name_hint="rows", optimizations=[pl.cross_core_slot(slot_num=4)]):
            t: pl.Tile[[4, 16], pl.FP32] = pl.load(x, [i * 4, 0], [4, 16])
            n = pl.tile.get_block_num()
            scale = pl.cast(i + n, pl.FP32)
            out = pl.store(pl.mul(t, scale), [i * 4, 0], out)
        return out
