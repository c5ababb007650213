# expect: out = np.broadcast_to(x, (2, 8, 16)) + np.broadcast_to(y, (2, 8, 16)) + np.broadcast_to(z, (2, 8, 16))
import pl


# tensor.expand_clone inside an InCore function converts to tile ops: a broadcast of the middle
# axis (a loop of column broadcasts), of the leading axis (one column broadcast) and of the last
# axis (one row broadcast).
@pl.program
class IncoreExpandClone:
    @pl.function(type=pl.FunctionType.InCore)
    def expand(
        self,
        x: pl.Tensor[[2, 1, 16], pl.FP32],
        y: pl.Tensor[[1, 8, 16], pl.FP32],
        z: pl.Tensor[[2, 8, 1], pl.FP32],
        target: pl.Tensor[[2, 8, 16], pl.FP32],
    ) -> pl.Tensor[[2, 8, 16], pl.FP32]:
        a = pl.tensor.expand_clone(x, target)
        b = pl.tensor.expand_clone(y, target)
        c = pl.tensor.expand_clone(z, target)
        ab = pl.tensor.add(a, b)
        r = pl.tensor.add(ab, c)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(
        self,
        x: pl.Tensor[[2, 1, 16], pl.FP32],
        y: pl.Tensor[[1, 8, 16], pl.FP32],
        z: pl.Tensor[[2, 8, 1], pl.FP32],
        out: pl.Out[pl.Tensor[[2, 8, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 8, 16], pl.FP32]:
        r = self.expand(x, y, z, out)
        out = pl.assemble(out, r, [0, 0, 0])
        return out
