import pl


@pl.program
class P:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.BF16]:
        r: pl.Tensor[[64], pl.BF16] = pl.tensor.cast(x, target_type=pl.BF16, mode=99)  # error: invalid mode 99; expected one of 'none'
        return r
