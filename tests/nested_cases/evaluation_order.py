import pl


@pl.program
class NestedOrder:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        b: pl.Tensor[[16, 16], pl.FP32],
        bias: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        at = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        bt = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        mm = pl.matmul(at, bt)
        # the nested load is evaluated before mm's move to Vec: it is taken out
        y = pl.add(mm, pl.load(bias, [0, 0], [16, 16]))
        mm2 = pl.matmul(at, bt)
        # the mul and its load come before the move the exp reads: both taken out; the exp stays
        z = pl.sub(pl.mul(pl.load(bias, [0, 0], [16, 16]), 2.0), pl.exp(mm2))
        w = pl.add(y, z)
        return pl.store(w, [0, 0], out)
