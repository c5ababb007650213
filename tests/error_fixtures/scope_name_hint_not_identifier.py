import pl


@pl.program
class Named:
    @pl.function
    def main(self, x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="double it"):  # error: pl.at() 'name_hint' must be a valid non-keyword identifier, got 'double it'  # error-col: 57
            y: pl.Tensor[[16], pl.FP32] = pl.add(x, x)
        return y
