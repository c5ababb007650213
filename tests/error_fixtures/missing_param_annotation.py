import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], b) -> pl.Tensor[[64], pl.FP32]:  # error: Parameter 'b' missing type annotation  # error-col: 46
        return a
