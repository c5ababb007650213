# A name both branches of an if bind as a loop's result (`y = pl.yield_(..)` closing each branch's
# loop) and read after the if: one variable, merged at the if, as when each branch assigns it (it
# was two, and the read after the if 'not defined on every path'; show_inferred writes an L0-tiled
# matmul in both branches of an if so).
# interpret: main(0) == 32, main(1) == 48
import pl


@pl.program
class LoopResultsInBranches:
    @pl.function
    def main(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        for k, (acc,) in pl.range(3, init_values=(n,)):
            if k == 0:
                for _i, (c,) in pl.range(2, init_values=(acc,)):
                    y = pl.yield_(c + 1)
            else:
                for _j, (e,) in pl.range(2, init_values=(acc,)):
                    y = pl.yield_(e * 2)
            acc_next = pl.yield_(y)
        return acc_next
