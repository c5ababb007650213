import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.NONE)]):
            for lane in pl.split_aiv(2, mode=pl.SplitMode.NONE):  # error: mutually exclusive ways of splitting the AIV lanes
                out = pl.store(pl.load(x, [lane * 32, 0], [32, 16]), [lane * 32, 0], out)
        return out
