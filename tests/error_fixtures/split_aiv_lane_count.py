import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        for lane in pl.split_aiv(4, mode=pl.SplitMode.NONE):  # error: pl.split_aiv(n) requires n == 2
            out = pl.store(pl.load(x, [lane * 16, 0], [16, 16]), [lane * 16, 0], out)
        return out
