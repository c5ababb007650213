import pl


@pl.program
class LoopTwinsThenIf:
    @pl.function
    def main(self, n__ssa_v0: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        d__ssa_v0: pl.Scalar[pl.INDEX] = n__ssa_v0
        for i__idx_v0, (d__iter_v1, e__iter_v0) in pl.range(4, init_values=(d__ssa_v0, n__ssa_v0)):
            if i__idx_v0 % 2 == 0:
                e__ssa_v2: pl.Scalar[pl.INDEX] = d__iter_v1 + 1
                e__phi_v4: pl.Scalar[pl.INDEX] = pl.yield_(e__ssa_v2)
            else:
                e__ssa_v3: pl.Scalar[pl.INDEX] = d__iter_v1 * 2
                e__phi_v4: pl.Scalar[pl.INDEX] = pl.yield_(e__ssa_v3)
            if i__idx_v0 > 1:
                e__ssa_v5: pl.Scalar[pl.INDEX] = e__phi_v4 + 100
                e__phi_v7: pl.Scalar[pl.INDEX] = pl.yield_(e__ssa_v5)
            else:
                e__ssa_v6: pl.Scalar[pl.INDEX] = e__phi_v4 + 10
                e__phi_v7: pl.Scalar[pl.INDEX] = pl.yield_(e__ssa_v6)
            d__ssa_v3: pl.Scalar[pl.INDEX] = d__iter_v1 + e__phi_v7
            d__rv_v2, e__rv_v1 = pl.yield_(d__ssa_v3, e__phi_v7)
        return d__rv_v2 + e__rv_v1

