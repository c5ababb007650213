# expect: out = (x + y) + (x + y)
import pl


# A tensor-op result first bound in a loop of an InCore function and returned after it. SSA
# starts its loop carry from a stand-in of its type (the first such parameter, `scratch`, never
# read); once converted the loop yields a tile, so the carry holds a tile and the stand-in is
# loaded before the loop.
@pl.program
class IncoreLoopResult:
    @pl.function(type=pl.FunctionType.InCore)
    def body(
        self,
        scratch: pl.Tensor[[2, 8, 16], pl.FP32],
        x: pl.Tensor[[2, 8, 16], pl.FP32],
        y: pl.Tensor[[2, 8, 16], pl.FP32],
    ) -> pl.Tensor[[2, 8, 16], pl.FP32]:
        s = pl.tensor.add(x, y)
        for _ in pl.range(2):
            r = pl.tensor.add(s, s)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(
        self,
        x: pl.Tensor[[2, 8, 16], pl.FP32],
        y: pl.Tensor[[2, 8, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[2, 8, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 8, 16], pl.FP32]:
        r = self.body(out, x, y)
        out = pl.assemble(out, r, [0, 0, 0])
        return out
