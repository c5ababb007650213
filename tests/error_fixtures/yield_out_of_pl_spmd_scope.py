import pl


@pl.program
class K:
    # The loop the yield would end is outside the per-block scope, whose body becomes an InCore
    # function of its own.
    @pl.function
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        for i, (o,) in pl.range(2, init_values=(out,)):
            with pl.spmd(2):
                b = pl.tile.get_block_idx()
                t = pl.load(a, [b * 8, 0], [8, 16])
                o2 = pl.store(t, [b * 8, 0], o)
                r = pl.yield_(o2)  # error: pl.yield_(...) cannot end a loop or an if around the pl.at(level=pl.Level.CORE_GROUP) or pl.spmd scope
        return r
