# expect: out = np.stack([e, o], axis=-1).reshape(4, 32)
import pl


# Two mask-form scatters chained into one dst (P0101: the even columns, P1010: the odd ones),
# converted to tile ops inside an InCore function: the second keeps the first's writes.
@pl.program
class IncoreScatterMask:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        e: pl.Tensor[[4, 16], pl.FP32],
        o: pl.Tensor[[4, 16], pl.FP32],
        d: pl.Tensor[[4, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[4, 32], pl.FP32]],
    ) -> pl.Tensor[[4, 32], pl.FP32]:
        r = pl.tensor.scatter(e, mask_pattern=pl.tile.MaskPattern.P0101, dst=d)
        r = pl.tensor.scatter(o, mask_pattern=pl.tile.MaskPattern.P1010, dst=r)
        out = pl.assemble(out, r, [0, 0])
        return out
