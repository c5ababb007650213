import pl


@pl.program
class K:
    @pl.function
    def main(self, a: pl.Tensor[[16], pl.FP32], b: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        skip = [a, b]
        with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=skip):  # error: pl.at(no_dep_args=...) must be a list literal  # error-col: 59
            c: pl.Tensor[[16], pl.FP32] = pl.sub(a, b)
        return c
