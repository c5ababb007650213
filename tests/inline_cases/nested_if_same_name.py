import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        # every path binds `r`, in ifs nested in both branches of another if
        if m > 2:
            if m > 4:
                r = pl.add(t, t)
            else:
                r = pl.mul(t, t)
        else:
            if m > 0:
                r = pl.sub(t, 1.0)
            else:
                r = pl.exp(t)
        out = pl.store(r, [0, 0], out)
        return out
