import pl


@pl.program
class SwapInIf:
    @pl.function
    def main(self, n__ssa_v0: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        a__ssa_v0: pl.Scalar[pl.INDEX] = n__ssa_v0 + 1
        b__ssa_v0: pl.Scalar[pl.INDEX] = n__ssa_v0 + 2
        for i__idx_v0, (a__iter_v1, b__iter_v1) in pl.range(3, init_values=(a__ssa_v0, b__ssa_v0)):
            if i__idx_v0 % 2 == 0:
                _tuple_tmp__ssa_v0: pl.Tuple[
                    pl.Scalar[pl.INDEX],
                    pl.Scalar[pl.INDEX],
                ] = [b__iter_v1, a__iter_v1]
                a__ssa_v3: pl.Scalar[pl.INDEX] = _tuple_tmp__ssa_v0[0]
                b__ssa_v3: pl.Scalar[pl.INDEX] = _tuple_tmp__ssa_v0[1]
                a__phi_v4, b__phi_v5 = pl.yield_(a__ssa_v3, b__ssa_v3)
            else:
                b__ssa_v4: pl.Scalar[pl.INDEX] = a__iter_v1 + b__iter_v1
                a__phi_v4, b__phi_v5 = pl.yield_(a__iter_v1, b__ssa_v4)
            a__rv_v2, b__rv_v2 = pl.yield_(a__phi_v4, b__phi_v5)
        return a__rv_v2 * 100 + b__rv_v2

