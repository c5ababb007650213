"""A value an inner loop yields, read after an outer loop that carries nothing: SSA carries it out
of the outer loop, starting from a stand-in of its type for the case the loop does not run. The
first such value was `t1`, a tile of the first scope (another task), which the second scope
cannot read: the stand-in comes from the scope itself (`t7`) (found by the scoped hypothesis
family)."""
import pl


@pl.program
class Generated:
    @pl.function
    def main(self, x: pl.Tensor[[16, 48], pl.FP32], out: pl.Out[pl.Tensor[[16, 48], pl.FP32]]
             ) -> pl.Tensor[[16, 48], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t1 = pl.load(x, [0, 0], [16, 16])
            out = pl.store(t1, [0, 0], out)
        with pl.at(level=pl.Level.CORE_GROUP):
            t7 = pl.load(out, [0, 0], [16, 16])
            for _i9 in pl.range(2):
                for _j10, (c11,) in pl.range(1, init_values=(t7,)):
                    n13 = pl.neg(c11)
                    r12 = pl.yield_(n13)
            out = pl.store(r12, [0, 16], out)
        return out
