# expect: out = np.broadcast_to(x, (2, 8, 16)) + 0 * out
import pl


# The [2, 1, 16] input broadcast along its extent-1 axis to the target's [2, 8, 16].
@pl.program
class ExpandClone:
    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(
        self,
        x: pl.Tensor[[2, 1, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[2, 8, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 8, 16], pl.FP32]:
        r = pl.tensor.expand_clone(x, out)
        out = pl.assemble(out, r, [0, 0, 0])
        return out
