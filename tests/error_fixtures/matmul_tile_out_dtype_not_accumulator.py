import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, lhs: pl.Tensor[[16, 16], pl.FP16], rhs: pl.Tensor[[16, 16], pl.FP16],
               out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        a = pl.load(lhs, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        b = pl.load(rhs, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        acc = pl.matmul(a, b, out_dtype=pl.FP16)  # error: 'out_dtype' is not supported for Tile operands  # error-col: 15
        out = pl.store(acc, [0, 0], out)
        return out
