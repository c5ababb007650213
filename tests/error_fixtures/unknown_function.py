import pl


@pl.program
class K:
    @pl.function
    def main(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        b = self.nope(a)  # error: Function 'nope' not defined in program  # error-col: 13
        return b
