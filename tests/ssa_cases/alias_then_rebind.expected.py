import pl


@pl.program
class AliasThenRebind:
    @pl.function
    def main(self, n__ssa_v0: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        a__ssa_v0: pl.Scalar[pl.INDEX] = n__ssa_v0 * 2
        b__ssa_v0: pl.Scalar[pl.INDEX] = a__ssa_v0
        if n__ssa_v0 < 3:
            b__ssa_v1: pl.Scalar[pl.INDEX] = b__ssa_v0 + 1
            b__phi_v3: pl.Scalar[pl.INDEX] = pl.yield_(b__ssa_v1)
        else:
            c__ssa_v0: pl.Scalar[pl.INDEX] = b__ssa_v0
            b__ssa_v2: pl.Scalar[pl.INDEX] = c__ssa_v0 + 5
            b__phi_v3: pl.Scalar[pl.INDEX] = pl.yield_(b__ssa_v2)
        return a__ssa_v0 * 100 + b__phi_v3

