import pl


@pl.program
class K:
    @pl.function
    def main(self, a: pl.Tensor[[8, 8], pl.FP32]) -> pl.Tensor[[8, 8], pl.FP32]:
        with pl.at(pl.Level.CORE_GROUP, name_hint="body", sync_start=True):  # error: Unknown keyword argument 'sync_start' in pl.at()  # error-col: 59
            b: pl.Tensor[[8, 8], pl.FP32] = pl.mul(a, a)
        return b
