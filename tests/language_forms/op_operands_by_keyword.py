import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(tensor=x, offsets=[0, 0], shapes=[16, 16])
        # a unified op's operands by keyword: they choose the tile form as positional ones do
        u = pl.add(lhs=t, rhs=t)
        v = pl.mul(t, rhs=u)
        out = pl.store(v, [0, 0], out)
        return out
