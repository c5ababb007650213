# A loop's iter arg rebound inside a nested loop is that carried value, as in Python: the inner
# loop carries it from one of its iterations to the next (each inner iteration adds 1; before the
# frontend gave one variable one identity, every inner iteration read the outer value again).
# interpret: main(0) == 6, main(10) == 16
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
