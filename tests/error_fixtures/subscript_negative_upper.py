import pl


@pl.program
class K:
    @pl.function
    def f(self, x: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[13, 64], pl.FP32]:
        y = x[2:-1]  # error: tensor.slice requires positive shape dimensions, but got [-3, 64]
        return y
