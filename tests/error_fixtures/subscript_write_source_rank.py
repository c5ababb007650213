import pl


@pl.program
class K:
    @pl.function
    def f(self, c: pl.Tensor[[8, 8, 16, 16], pl.FP32], r: pl.Tensor[[8, 16, 16], pl.FP32],
          i: pl.Scalar[pl.INDEX]) -> pl.Tensor[[8, 8, 16, 16], pl.FP32]:
        c[i, i] = r  # error: Subscript-write source must be 2D to match the rank-reduced tensor window, got 3D
        return c
