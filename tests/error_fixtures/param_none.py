import pl


@pl.program
class K:
    @pl.function
    def f(
        self,
        n: pl.Scalar[pl.INDEX],
        m: None,  # error: Parameter 'm' cannot have type None  # error-col: 12
    ) -> pl.Scalar[pl.INDEX]:
        return n
