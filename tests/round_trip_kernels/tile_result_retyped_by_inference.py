"""An Orchestration function binding an InCore function's tile result: `nv2` is deduced with the
matmul result's layout, inference makes it a plain Vec tile (its operand moved out of Acc), and
the caller's call and the name it binds follow the new result type (pl/infer/callers.py): they
kept the deduced one, and the compiled program read back to another program (exit 123)."""
import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k1(self, y: pl.Tensor[[16, 48], pl.FP32]) -> pl.Tile[[16, 16], pl.FP32]:
        t1 = pl.load(y, [0, 32], [16, 16], target_memory=pl.MemorySpace.Mat)
        nv2 = pl.mul(pl.matmul(t1, t1), t1)
        return nv2

    @pl.function(type=pl.FunctionType.InCore)
    def k2(self, t: pl.Tile[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 48], pl.FP32]]) -> pl.Tensor[[16, 48], pl.FP32]:
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, y: pl.Tensor[[16, 48], pl.FP32], out: pl.Out[pl.Tensor[[16, 48], pl.FP32]]) -> pl.Tensor[[16, 48], pl.FP32]:
        t = self.k1(y)
        out = self.k2(t, out)
        return out
