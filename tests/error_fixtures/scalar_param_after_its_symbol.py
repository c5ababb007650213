import pl

ROWS = pl.dynamic("ROWS")
FILLED = pl.dynamic("FILLED")


@pl.program
class Late:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[ROWS, 64], pl.FP16, pl.TensorView(valid_shape=[FILLED, 64], layout=pl.TensorLayout.ND)], FILLED: pl.Scalar[pl.INDEX], b: pl.Out[pl.Tensor[[ROWS, 64], pl.FP16]]) -> pl.Tensor[[ROWS, 64], pl.FP16]:  # error: Parameter 'FILLED' shadows the dynamic symbol 'FILLED', which an earlier parameter's type annotation already uses  # error-col: 125
        t = pl.load(a, [0, 0], [16, 64])
        return pl.store(t, [0, 0], b)
