# A loop's iter arg rebound inside a nested loop is a new variable, as the reference's parser reads
# it (its rebinding of an IterArg binds a fresh Var): the inner loop does not carry it, so every
# inner iteration reads the outer iter arg again and the outer loop adds 1 per trip, not 3.
# interpret: main(0) == 2, main(10) == 12
import pl


@pl.program
class IterArgReboundInNestedLoop:
    @pl.function
    def main(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        for i, (acc,) in pl.range(2, init_values=(n,)):
            for j in pl.range(3):
                acc = acc + 1
            r = pl.yield_(acc)
        return r
