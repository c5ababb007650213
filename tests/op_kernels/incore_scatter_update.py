# expect: out = np.concatenate([x[:2], src, x[6:]])
import pl


# Inside an InCore function tensor.scatter_update converts to a flat-index tile.scatter with
# a preserving blend: rows 2..5 take the rows of src, the others keep the input's.
@pl.program
class IncoreScatterUpdate:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[8, 16], pl.FP16],
        src: pl.Tensor[[4, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[8, 16], pl.FP16]],
    ) -> pl.Tensor[[8, 16], pl.FP16]:
        k = pl.tensor.ci(2, [1, 4], dtype=pl.INT32)
        r = pl.tensor.scatter_update(x, k, src, dim=-2)
        out = pl.assemble(out, r, [0, 0])
        return out
