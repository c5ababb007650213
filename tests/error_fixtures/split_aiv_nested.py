import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        for lane in pl.split_aiv(2, mode=pl.SplitMode.NONE):
            for sub in pl.split_aiv(2, mode=pl.SplitMode.NONE):  # error: nested 'for ... in pl.split_aiv(...)' is not allowed
                out = pl.store(pl.load(x, [lane * 32, 0], [32, 16]), [lane * 32, 0], out)
        return out
