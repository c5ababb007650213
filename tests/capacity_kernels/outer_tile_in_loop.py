"""A 64 KiB Vec tile `w` loaded before a loop and read at the top of its body stays live through
the whole body (the next iteration reads it again): with the two 64 KiB tiles the body makes at its
end, 192 KiB are live at once, more than Vec on 910B (184 KiB)."""

import pl


@pl.program
class OuterTileInLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def rows(self, x: pl.Tensor[[512, 128], pl.FP32], w: pl.Tensor[[128, 128], pl.FP32],
             out: pl.Out[pl.Tensor[[512, 128], pl.FP32]]) -> pl.Tensor[[512, 128], pl.FP32]:
        wt = pl.load(w, [0, 0], [128, 128])
        for i, (acc,) in pl.range(0, 512, 128, init_values=(out,)):
            first = pl.exp(wt)
            acc_first = pl.store(first, [i, 0], acc)
            blk = pl.load(x, [i, 0], [128, 128])
            second = pl.exp(blk)
            acc_next = pl.store(second, [i, 0], acc_first)
            result = pl.yield_(acc_next)
        return result
