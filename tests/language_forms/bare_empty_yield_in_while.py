import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(x, [0, 0], [16, 16])
        i: pl.Scalar[pl.INDEX] = 0
        done: pl.Scalar[pl.BOOL] = False
        while i < 6 and not done:
            if i > m:
                done: pl.Scalar[pl.BOOL] = True
                pl.yield_()
            else:
                t = pl.add(t, 1.0)
                pl.yield_()
            if not done:
                i = i + 1
        if m > 3:  # a then-branch that yields nothing, with no else
            t = pl.mul(t, t)
            pl.yield_()
        out = pl.store(t, [0, 0], out)
        return out
