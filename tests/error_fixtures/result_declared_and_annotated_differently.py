import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]], m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [64, 64])
        r: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec]
        if m > 0:
            r: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Mat] = pl.yield_(t)  # error: 'r' is annotated
        else:
            r = pl.yield_(t)
        out = pl.store(r, [0, 0], out)
        return out
