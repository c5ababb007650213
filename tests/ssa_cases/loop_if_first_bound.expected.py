import pl


@pl.program
class LoopIfFirstBound:
    @pl.function
    def main(self, n__ssa_v0: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        s__ssa_v0: pl.Scalar[pl.INDEX] = n__ssa_v0
        for i__idx_v0, (s__iter_v1, d__iter_v0) in pl.range(4, init_values=(s__ssa_v0, n__ssa_v0)):
            if i__idx_v0 % 2 == 0:
                d__ssa_v2: pl.Scalar[pl.INDEX] = i__idx_v0 + n__ssa_v0
                d__phi_v4: pl.Scalar[pl.INDEX] = pl.yield_(d__ssa_v2)
            else:
                d__ssa_v3: pl.Scalar[pl.INDEX] = i__idx_v0 * n__ssa_v0
                d__phi_v4: pl.Scalar[pl.INDEX] = pl.yield_(d__ssa_v3)
            s__ssa_v3: pl.Scalar[pl.INDEX] = s__iter_v1 + d__phi_v4
            s__rv_v2, d__rv_v1 = pl.yield_(s__ssa_v3, d__phi_v4)
        return s__rv_v2 + d__rv_v1

