import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        with pl.cluster():
            with pl.spmd(4) as tid:  # error: cannot bind a task id inside `pl.cluster()`
                i = pl.tile.get_block_idx()
                out = pl.store(pl.load(x, [i * 16, 0], [16, 16]), [i * 16, 0], out)
        return out
