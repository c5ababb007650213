import pl


@pl.program
class K:
    @pl.function
    def f(self, x: pl.Tensor[[64, 128], pl.FP32]) -> pl.Scalar[pl.FP32]:
        v = x[0, 1, 2]  # error: Tensor subscript has 3 indices but the tensor is 2D
        return v
