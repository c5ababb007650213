# A name first bound in both branches of an if (and of an elif, and of an if nested in a branch)
# is one variable: its use after the if reads the branch that ran.
# interpret: main(0) == 5, main(1) == 130, main(2) == 280, main(5) == 500
import pl


@pl.program
class BothBranchesBind:
    @pl.function
    def main(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        if n == 0:
            y = n + 5
        elif n == 1:
            y = n + 12
            y = y * 10
        else:
            if n % 2 == 0:
                y = n * 140
            else:
                y = n * 100
        return y
