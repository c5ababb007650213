import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        b = a + a  # error: Expression must be ScalarExpr  # error-col: 13
        return b
