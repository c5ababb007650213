"""An accumulator made in Vec and rebound to a matmul_acc result in a loop, before SSA: the
rebinding keeps the name's Var, so the printer writes its Vec type on the rebinding line, and that
annotation restates the name's type rather than placing the value (it read back as "annotated Vec, but
tile.matmul_acc produces a Acc tile")."""
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 64], pl.BF16], b: pl.Tensor[[64, 64], pl.BF16],
          out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        acc = pl.create_tile([16, 64], dtype=pl.FP32)
        for _k in pl.range(2):
            x = pl.load(a, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            y = pl.load(b, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
            acc = pl.matmul_acc(acc, x, y)
        out = pl.store(acc, [0, 0], out)
        return out
