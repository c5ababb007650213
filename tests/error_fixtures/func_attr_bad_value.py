import pl


@pl.program
class K:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        pl.func_attr({"ns": pl.tile})  # error: 'pl.tile' is not a value usable in a kernel expression  # error-col: 29
        return n
