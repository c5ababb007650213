import pl

R = 32
C = 256


@pl.program
class LoweredConstants:
    # A tensor-level kernel: shown as it compiles, its loads and stores spell R and C too.
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[R, C], pl.FP32],
        out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        y: pl.Tensor[[R, C], pl.FP32] = pl.exp(x)
        out = pl.assemble(out, y, [0, 0])
        return out
