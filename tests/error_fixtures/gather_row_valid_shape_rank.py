import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, src: pl.Tensor[[256, 128], pl.BF16]) -> pl.Tensor[[16, 128], pl.BF16]:
        kv = pl.create_l1([16, 128], pl.BF16)
        kv = pl.gather_row(kv, src, [0, 0], [0, 0], [4, 128], valid_shape=[4])  # error: requires valid_shape to have the same rank as shapes (2)
        return kv
