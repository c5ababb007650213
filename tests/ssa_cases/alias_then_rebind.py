# `b = a`, then `b` rebound in a branch: `a` keeps its value, `b` is merged after the if.
# interpret: main(1) == 203, main(4) == 813
import pl


@pl.program
class AliasThenRebind:
    @pl.function
    def main(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        a = n * 2
        b = a
        if n < 3:
            b = b + 1
        else:
            c = b
            b = c + 5
        return a * 100 + b
