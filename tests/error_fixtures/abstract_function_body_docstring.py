import pl


@pl.program
class K:
    @pl.function
    def f(self, x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        """Supplied at run time."""
        ...  # error: Function 'f' has no body, only `...`  # error-col: 9
