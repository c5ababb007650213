# `a, b = b, a` in one branch of an if inside a loop, the other branch rebinding one of them:
# both names are carried by the loop and merged after the if.
# interpret: main(1) == 503, main(4) == 1106
import pl


@pl.program
class SwapInIf:
    @pl.function
    def main(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        a = n + 1
        b = n + 2
        for i in pl.range(3):
            if i % 2 == 0:
                a, b = b, a
            else:
                b = a + b
        return a * 100 + b
