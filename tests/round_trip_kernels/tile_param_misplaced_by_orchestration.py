"""An Orchestration function that loads a Mat tile and passes it to an AIV function's Vec Tile
parameter (In): inference places the tiles of every function that holds tile ops
(docs/compatibility.md), so the call is given a Vec move of it; it was a bad input ('requires Vec
but is in Mat') while only InCore, AIC and AIV functions got moves."""
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.AIV)
    def f(self, a: pl.Tile[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        s = pl.add(a, a)
        r = pl.store(s, [0, 0], out)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        r = self.f(t, out)
        return r
