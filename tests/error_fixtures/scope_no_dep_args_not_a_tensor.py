import pl


@pl.program
class K:
    @pl.function
    def main(self, a: pl.Tensor[[16], pl.FP32], n: pl.Scalar[pl.INT32]) -> pl.Tensor[[16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[a, n]):  # error: entry 'n' is not a tensor  # error-col: 63
            c: pl.Tensor[[16], pl.FP32] = pl.add(a, a)
        return c
