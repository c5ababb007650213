# expect: out = x + y
import pl


@pl.program
class PartAdd:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        y: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 64])
        b = pl.load(y, [0, 0], [16, 64])
        r = pl.tile.part_add(a, b)
        out = pl.store(r, [0, 0], out)
        return out
