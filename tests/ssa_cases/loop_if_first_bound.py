# A name first bound in both branches of an if in a loop body, read in the body after the if and
# after the loop: one variable, carried out of the loop.
# interpret: main(1) == 12, main(2) == 22
import pl


@pl.program
class LoopIfFirstBound:
    @pl.function
    def main(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        s = n
        for i in pl.range(4):
            if i % 2 == 0:
                d = i + n
            else:
                d = i * n
            s = s + d
        return s + d
