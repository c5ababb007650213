"""A matmul outside any pl.at scope of an Orchestration function: inference places the tiles of
every function that holds tile ops (docs/compatibility.md), so it reads Left/Right moves of its
Vec loads; it was a bad input ('requires Left but is in Vec') while only InCore functions and
pl.at scopes got moves."""
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        ta = pl.load(a, [0, 0], [16, 16])
        tb = pl.load(b, [0, 0], [16, 16])
        acc = pl.matmul(ta, tb)
        out = pl.store(acc, [0, 0], out)
        return out
