import pl


# exp / sqrt / rsqrt / recip of an integer tensor are FP32 (the type rule promotes the input),
# where the tile ops keep the integer dtype: the input tile is cast to FP32 first.
@pl.program
class UnaryOfIntegers:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        q: pl.Tensor[[16, 64], pl.INT8],
        x: pl.Tensor[[16, 64], pl.INT32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        e = pl.exp(q)
        s = pl.sqrt(pl.mul(x, x))
        r = pl.recip(pl.add(pl.mul(x, x), 1))
        t = pl.rsqrt(pl.add(pl.mul(q, q), 2))
        y = pl.add(pl.add(e, s), pl.add(r, t))
        out = pl.assemble(out, y, [0, 0])
        return out
