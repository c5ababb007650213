import pl


@pl.program
class K:
    @pl.function
    def f(self, x: pl.Tensor[[64, 128], pl.FP32], v: pl.Scalar[pl.FP32]) -> pl.Tensor[[64, 128], pl.FP32]:
        x[1, 2] = v  # error: Element-write 'dst[i, j] = scalar' is not supported for tensor targets
        return x
