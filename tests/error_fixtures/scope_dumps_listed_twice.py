import pl


@pl.program
class K:
    @pl.function
    def main(self, a: pl.Tensor[[16], pl.FP32], b: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, dumps=[b, a, b]):  # error: pl.at(dumps=...) lists 'b' more than once  # error-col: 60
            c: pl.Tensor[[16], pl.FP32] = pl.sub(a, b)
        return c
