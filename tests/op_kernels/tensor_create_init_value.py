# expect: out = np.concatenate([x + 1.5, np.full((16, 32), 1.5, np.float32)], axis=1)
import pl


# A tensor created with init_value inside an InCore function is an on-chip tile: the conversion
# fills it (tile.full), where it once dropped the value and left zeros.
@pl.program
class CreateInitValue:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 96], pl.FP32]],
    ) -> pl.Tensor[[16, 96], pl.FP32]:
        ones = pl.create_tensor([16, 64], dtype=pl.FP32, init_value=1.5)
        s = pl.add(x, ones)
        out = pl.assemble(out, s, [0, 0])
        rest = pl.create_tensor([16, 32], dtype=pl.FP32, init_value=1.5)
        out = pl.assemble(out, rest, [0, 64])
        return out
