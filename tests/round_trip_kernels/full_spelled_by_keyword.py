"""tile.full and tensor.full print their dtype and value by keyword (`pl.FP32` is not a positional
value of the reference's wrapper): pl/ops/surface.py spells them so, and the text reads back."""
import pl


@pl.program
class FullByKeyword:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 32], pl.FP32],
               out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 32])
        ones = pl.tile.full([16, 32], dtype=pl.FP32, value=1.0)
        out = pl.store(pl.add(t, ones), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 32], pl.FP32],
             out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        zeros = pl.tensor.full([16, 32], dtype=pl.FP32, value=0.0)
        out = self.kernel(zeros, out)
        return out
