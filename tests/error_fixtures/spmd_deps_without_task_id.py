import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        with pl.spmd(4) as t0:
            i = pl.tile.get_block_idx()
            out = pl.store(pl.load(x, [i * 16, 0], [16, 16]), [i * 16, 0], out)
        with pl.spmd(4, deps=[t0]):  # error: pl.spmd() does not accept 'deps=' here
            j = pl.tile.get_block_idx()
            out = pl.store(pl.load(x, [j * 16, 0], [16, 16]), [j * 16, 0], out)
        return out
