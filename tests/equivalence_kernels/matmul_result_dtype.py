import pl


# pl.matmul of two BF16 tensors is BF16 at tensor level (no out_dtype) where tile.matmul
# accumulates in FP32: the accumulator is cast to BF16, so the add after it rounds as the
# source does.
@pl.program
class MatmulResultDtype:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 32], pl.BF16],
        b: pl.Tensor[[32, 16], pl.BF16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        c = pl.matmul(a, b)
        d = pl.add(c, 0.001)
        out = pl.assemble(out, d, [0, 0])
        return out
