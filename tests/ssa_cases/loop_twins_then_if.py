# A name first bound in both branches of an if in a loop, rebound by both branches of a later if
# and read after the loop: one variable, carried once, merged at each if.
# interpret: main(0) == 1135, main(1) == 1195
import pl


@pl.program
class LoopTwinsThenIf:
    @pl.function
    def main(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        d = n
        for i in pl.range(4):
            if i % 2 == 0:
                e = d + 1
            else:
                e = d * 2
            if i > 1:
                e = e + 100
            else:
                e = e + 10
            d = d + e
        return d + e
