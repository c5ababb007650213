import pl


@pl.program
class IterArgReboundInBranch:
    @pl.function
    def main(self, n__ssa_v0: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        for i__idx_v0, (acc,) in pl.range(3, init_values=(n__ssa_v0,)):
            if i__idx_v0 > n__ssa_v0:
                acc__ssa_v0: pl.Scalar[pl.INDEX] = acc + 10
                acc__phi_v1: pl.Scalar[pl.INDEX] = pl.yield_(acc__ssa_v0)
            else:
                t__ssa_v0: pl.Scalar[pl.INDEX] = acc * 2
                acc__phi_v1: pl.Scalar[pl.INDEX] = pl.yield_(acc)
            nxt__ssa_v0: pl.Scalar[pl.INDEX] = acc__phi_v1 + 0
            r: pl.Scalar[pl.INDEX] = pl.yield_(nxt__ssa_v0)
        return r

