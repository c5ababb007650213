import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        for i in pl.spmd(0):  # error: core_num must be a positive integer, got 0
            out = pl.store(pl.load(x, [i * 16, 0], [16, 16]), [i * 16, 0], out)
        return out
