import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, lhs: pl.Tensor[[16, 16], pl.FP32], rhs: pl.Tensor[[16, 16], pl.FP32],
               k: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        a = pl.load(lhs, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        b = pl.load(rhs, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        acc = pl.tile.create([16, 16], pl.FP32, target_memory=pl.MemorySpace.Acc)
        acc = pl.tile.matmul_acc(acc, a, b, init_cond=k)  # error: requires init_cond to have dtype BOOL, but got index  # error-col: 15
        out = pl.store(acc, [0, 0], out)
        return out
