import pl


@pl.program
class Hosted:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16], pl.FP32], y: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, priority=3):  # error: Unknown keyword argument 'priority' in pl.at()  # error-col: 47
            y = pl.add(x, x)
        return y
