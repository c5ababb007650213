# A loop's iter arg rebound in one branch of an if: after the if, the branch's value where it
# ran, else the carried value.
# interpret: main(0) == 20, main(1) == 11, main(2) == 2
import pl


@pl.program
class IterArgReboundInBranch:
    @pl.function
    def main(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        for i, (acc,) in pl.range(3, init_values=(n,)):
            if i > n:
                acc = acc + 10
            else:
                t = acc * 2
            nxt = acc + 0
            r = pl.yield_(nxt)
        return r
