# expect: out = np.where((np.arange(2)[:, None, None] == 0) & (np.arange(4)[None, :, None] < 2) & (np.arange(8) >= 4), np.pad(x[:2, :4], ((0, 2), (4, 0)))[None], out)
import pl


# A [2, 4] source assembled into a [2, 4, 8] target at a 3-D offset fills the trailing axes
# (its shape padded with a leading 1).
@pl.program
class AssembleLowerRank:
    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(
        self,
        x: pl.Tensor[[4, 8], pl.FP32],
        out: pl.Out[pl.Tensor[[2, 4, 8], pl.FP32]],
    ) -> pl.Tensor[[2, 4, 8], pl.FP32]:
        chunk = pl.slice(x, [2, 4], [0, 0])
        out = pl.assemble(out, chunk, [0, 0, 4])
        return out
