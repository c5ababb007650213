import pl


@pl.program(strict_ssa=True)
class K:
    @pl.function
    def f(self, out: pl.Tensor[[64, 128], pl.FP32], src: pl.Tensor[[16, 32], pl.FP32]) -> pl.Tensor[[64, 128], pl.FP32]:
        out[0:16, 0:32] = src  # error: Subscript-write syntax 'dst[...] = src' is only supported before SSA conversion
        return out
