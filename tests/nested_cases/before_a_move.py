import pl


@pl.program
class NestedBeforeAMove:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        p: pl.Tensor[[32, 32], pl.FP32],
        q: pl.Tensor[[32, 32], pl.FP32],
        scale: pl.Tensor[[32, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        pm = pl.load(p, [0, 0], [32, 32], target_memory=pl.MemorySpace.Mat)
        qm = pl.load(q, [0, 0], [32, 32], target_memory=pl.MemorySpace.Mat)
        pl_ = pl.move(pm, target_memory=pl.MemorySpace.Left)
        qr = pl.move(qm, target_memory=pl.MemorySpace.Right)
        prod = pl.matmul(pl_, qr)
        # the nested load is computed before prod moves to Vec: it is taken out, before the move
        scaled = pl.mul(prod, pl.load(scale, [0, 0], [32, 32]))
        out = pl.store(scaled, [0, 0], out)
        return out
