import pl
import nonexistent_module_xyz


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        t = pl.load(x, [0, 0], [16, nonexistent_module_xyz.COLS])  # error: nonexistent_module_xyz
        out = pl.store(t, [0, 0], out)
        return out
