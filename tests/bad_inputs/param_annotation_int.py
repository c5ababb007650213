import pl


@pl.program
class K:
    @pl.function
    def f(self, a: int) -> pl.Tensor[[64], pl.FP32]:  # error: Unsupported type annotation 'int'
        return a
