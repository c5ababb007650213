import pl


@pl.program
class L0Matmul:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[128, 512], pl.BF16],
        rhs: pl.Tensor[[512, 64], pl.BF16],
        out: pl.Out[pl.Tensor[[128, 64], pl.FP32]],
    ) -> pl.Tensor[[128, 64], pl.FP32]:
        # K = 512 does not fit L0: the matmul is tiled into a loop over K
        c = pl.matmul(lhs, rhs, out_dtype=pl.FP32)  # the tiled matmul
        out = pl.assemble(out, c, [0, 0])
        return out
