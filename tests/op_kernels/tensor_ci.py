# expect: out = x + np.arange(7, 7 + 32, dtype=np.int32).reshape(1, 32)
import pl


@pl.program
class TensorArange:
    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(
        self,
        x: pl.Tensor[[1, 32], pl.INT32],
        out: pl.Out[pl.Tensor[[1, 32], pl.INT32]],
    ) -> pl.Tensor[[1, 32], pl.INT32]:
        r = pl.tensor.ci(7, [1, 32], dtype=pl.INT32)
        s = pl.tensor.add(x, r)
        out = pl.assemble(out, s, [0, 0])
        return out
