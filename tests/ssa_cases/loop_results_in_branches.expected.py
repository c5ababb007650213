import pl


@pl.program
class LoopResultsInBranches:
    @pl.function
    def main(self, n__ssa_v0: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        for k__idx_v0, (acc,) in pl.range(3, init_values=(n__ssa_v0,)):
            if k__idx_v0 == 0:
                for _i__idx_v0, (c,) in pl.range(2, init_values=(acc,)):
                    y: pl.Scalar[pl.INDEX] = pl.yield_(c + 1)
                y__phi_v0: pl.Scalar[pl.INDEX] = pl.yield_(y)
            else:
                for _j__idx_v0, (e,) in pl.range(2, init_values=(acc,)):
                    y_1: pl.Scalar[pl.INDEX] = pl.yield_(e * 2)
                y__phi_v0: pl.Scalar[pl.INDEX] = pl.yield_(y_1)
            acc_next: pl.Scalar[pl.INDEX] = pl.yield_(y__phi_v0)
        return acc_next

