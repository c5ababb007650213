import pl


@pl.program
class K:
    @pl.function
    def f(self, out: pl.Tensor[[64, 128], pl.FP32], src: pl.Tensor[[16, 32], pl.FP32],
          i: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 128], pl.FP32]:
        out[i : i + 8, 0:32] = src  # error: Subscript-write shape mismatch on source axis 0: window expects 8 elements, source has 16
        return out
