import pl


@pl.program
class K:
    @pl.function
    def main(self, a: pl.Tensor[[8, 8], pl.FP32]) -> pl.Tensor[[8, 8], pl.FP32]:
        # The hint names the outlined function, so a Python keyword cannot be one.
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="lambda"):  # error: 'name_hint' must be a valid non-keyword identifier, got 'lambda'  # error-col: 57
            b: pl.Tensor[[8, 8], pl.FP32] = pl.exp(a)
        return b
