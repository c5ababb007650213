import pl


@pl.program
class NestedMoves:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        b: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        bt = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        # the nested load needs a move to Left: it alone is taken out
        c = pl.matmul(pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat), bt)
        # the nested add reads c moved to Vec: renamed where it stands
        y = pl.exp(pl.add(c, pl.mul(c, 0.5)))
        out = pl.store(y, [0, 0], out)
        return out
