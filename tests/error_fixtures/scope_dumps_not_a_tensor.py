import pl


@pl.program
class Dumped:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[32, 32], pl.FP16], k: pl.Scalar[pl.INT64], y: pl.Out[pl.Tensor[[32, 32], pl.FP16]]) -> pl.Tensor[[32, 32], pl.FP16]:
        with pl.at(level=pl.Level.CORE_GROUP, dumps=[x, k]):  # error: dumps=...) entry 'k' is not a tensor  # error-col: 57
            y = pl.mul(x, x)
        return y
