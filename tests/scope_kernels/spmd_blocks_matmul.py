"""Per-block work in `pl.spmd` scopes (the loop form and the with form): each body is outlined."""
import pl


@pl.program
class K:
    @pl.function
    def main(self, a: pl.Tensor[[64, 32], pl.FP32], b: pl.Tensor[[32, 32], pl.FP32],
             out: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        for i in pl.spmd(4):
            ta = pl.load(a, [i * 16, 0], [16, 32])
            tb = pl.load(b, [0, 0], [32, 32])
            out = pl.store(pl.matmul(ta, tb), [i * 16, 0], out)
        with pl.spmd(2):
            j = pl.tile.get_block_idx()
            t = pl.load(out, [j * 32, 0], [32, 32])
            out = pl.store(pl.exp(t), [j * 32, 0], out)
        return out
