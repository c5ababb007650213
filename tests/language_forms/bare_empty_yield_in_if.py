import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(x, [0, 0], [16, 16])
        flag: pl.Scalar[pl.BOOL] = False
        if m > 2:
            flag: pl.Scalar[pl.BOOL] = True
            t = pl.add(t, t)
            pl.yield_()
        else:
            t = pl.mul(t, t)
            pl.yield_()
        if flag:
            t = pl.add(t, 1.0)
        out = pl.store(t, [0, 0], out)
        return out
