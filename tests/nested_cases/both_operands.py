import pl


@pl.program
class NestedRetarget:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        b: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        # both nested loads feed the matmul through a move: each is taken out, named from c
        c = pl.matmul(pl.load(a, [0, 0], [16, 16]), pl.load(b, [0, 0], [16, 16]))
        y = pl.exp(pl.add(pl.neg(c), 1.0))
        out = pl.store(y, [0, 0], out)
        return out
