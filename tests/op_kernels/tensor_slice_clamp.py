# expect: out = np.concatenate([a[:, 32:60] * 2, out[:, 28:32], a[:, 40:60] + 1, out[:, 52:]], axis=1)
import pl


# A slice of a GM tensor whose window runs off the source: clamp=True makes it valid up to the
# source edge, and so does a valid_shape that stops there. Inside an InCore function both become
# loads that read only that region, and the stores write only it.
@pl.program
class SliceClamp:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 60], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        s = pl.slice(a, [16, 32], [0, 32], clamp=True)
        out = pl.assemble(out, pl.add(s, s), [0, 0])
        tail = pl.slice(a, [16, 32], [0, 40], valid_shape=[16, 20])
        out = pl.assemble(out, pl.add(tail, 1.0), [0, 32])
        return out
