import pl


@pl.program
class Manual:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16], pl.FP32], y: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        with pl.manual_scope(label="stage"):  # error: pl.manual_scope() does not accept arguments  # error-col: 14
            y = pl.add(x, x)
        return y
