import pl


@pl.program
class BothBranchesBind:
    @pl.function
    def main(self, n__ssa_v0: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        if n__ssa_v0 == 0:
            y__ssa_v0: pl.Scalar[pl.INDEX] = n__ssa_v0 + 5
            y__phi_v7: pl.Scalar[pl.INDEX] = pl.yield_(y__ssa_v0)
        else:
            if n__ssa_v0 == 1:
                y__ssa_v1: pl.Scalar[pl.INDEX] = n__ssa_v0 + 12
                y__ssa_v2: pl.Scalar[pl.INDEX] = y__ssa_v1 * 10
                y__phi_v6: pl.Scalar[pl.INDEX] = pl.yield_(y__ssa_v2)
            else:
                if n__ssa_v0 % 2 == 0:
                    y__ssa_v3: pl.Scalar[pl.INDEX] = n__ssa_v0 * 140
                    y__phi_v5: pl.Scalar[pl.INDEX] = pl.yield_(y__ssa_v3)
                else:
                    y__ssa_v4: pl.Scalar[pl.INDEX] = n__ssa_v0 * 100
                    y__phi_v5: pl.Scalar[pl.INDEX] = pl.yield_(y__ssa_v4)
                y__phi_v6: pl.Scalar[pl.INDEX] = pl.yield_(y__phi_v5)
            y__phi_v7: pl.Scalar[pl.INDEX] = pl.yield_(y__phi_v6)
        return y__phi_v7

