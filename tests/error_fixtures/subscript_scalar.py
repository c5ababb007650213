import pl


@pl.program
class K:
    @pl.function
    def f(self, x: pl.Tensor[[64, 128], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 128], pl.FP32]:
        m = n[0]  # error: Subscript requires Tuple, Tensor, Tile, or Array type, got ScalarType
        return x
