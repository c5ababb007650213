import pl


@pl.program
class Dumped:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[32, 32], pl.FP16], y: pl.Out[pl.Tensor[[32, 32], pl.FP16]]) -> pl.Tensor[[32, 32], pl.FP16]:
        with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[x, x]):  # error: lists 'x' more than once  # error-col: 63
            y = pl.sub(x, x)
        return y
