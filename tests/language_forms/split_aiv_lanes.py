# printed: in pl.split_aiv(2, mode=pl.SplitMode.NONE):
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        # Each of the two AIV lanes takes half of the rows.
        for lane in pl.split_aiv(2, mode=pl.SplitMode.NONE):
            t: pl.Tile[[8, 16], pl.FP32] = pl.load(x, [lane * 8, 0], [8, 16])
            out = pl.store(pl.exp(t), [lane * 8, 0], out)
        return out
