import pl


@pl.program
class IterArgReboundInNestedLoop:
    @pl.function
    def main(self, n__ssa_v0: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        for i__idx_v0, (acc,) in pl.range(2, init_values=(n__ssa_v0,)):
            for j__idx_v0, (acc__iter_v0,) in pl.range(3, init_values=(n__ssa_v0,)):
                acc__ssa_v2: pl.Scalar[pl.INDEX] = acc + 1
                acc__rv_v1: pl.Scalar[pl.INDEX] = pl.yield_(acc__ssa_v2)
            r: pl.Scalar[pl.INDEX] = pl.yield_(acc__rv_v1)
        return r

