# expect: out = np.maximum(x, y)
import pl


@pl.program
class TensorPartMax:
    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        y: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        r = pl.tensor.part_max(x, y)
        out = pl.assemble(out, r, [0, 0])
        return out
