import pl


@pl.program
class BlockwiseAccumulate:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        w: pl.Tensor[[32, 128], pl.FP32],
        acc: pl.Tensor[[16, 128], pl.FP32],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        # The scope's task first reads acc (the loop's initial value), then x; the load of x does
        # not change in the loop and compiles to a load before it, which the shown form writes
        # there: its task then reads x first.
        with pl.at(level=pl.Level.CORE_GROUP):
            for blk in pl.range(0, 4):
                col = blk * 32
                prev = pl.slice(acc, [16, 32], [0, col])
                shifted = pl.add(x, 2.0)
                w_blk = pl.slice(w, [32, 32], [0, col])
                nxt = pl.add(prev, pl.matmul(shifted, w_blk))
                acc = pl.assemble(acc, nxt, [0, col])
        return acc
