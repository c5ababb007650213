import pl


@pl.program
class K:
    @pl.function
    def main(
        self, e: pl.Tensor[[4, 16], pl.FP32], d: pl.Tensor[[4, 16], pl.FP32]
    ) -> pl.Tensor[[4, 16], pl.FP32]:
        r = pl.tensor.scatter(e, mask_pattern=pl.tile.MaskPattern.P0101, dst=d)  # error: requires dst.shape[1] (16) == input.shape[1] (16) * 2
        return r
