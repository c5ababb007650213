import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.InOut[pl.Scalar[pl.INDEX]]) -> pl.Tensor[[64], pl.FP32]:  # error: InOut is not allowed on a Scalar parameter
        return a
