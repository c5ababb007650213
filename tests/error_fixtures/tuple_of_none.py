import pl


@pl.program
class K:
    @pl.function
    def f(
        self,
        n: pl.Scalar[pl.INDEX],
        m: pl.Tuple[None, pl.Scalar[pl.INDEX]],  # error: pl.Tuple[...] elements cannot be None  # error-col: 21
    ) -> pl.Scalar[pl.INDEX]:
        return n
