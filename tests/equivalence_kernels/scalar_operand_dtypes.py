import pl


# A scalar operand whose dtype the tensor op promotes with: the tensor-level result is FP32 where
# the tile ops (tile.adds, tile.muls, ...) keep their tile operand's INT32 / BF16 / INT8 dtype,
# so the tile operand is cast to the result dtype first.
@pl.program
class ScalarOperandDtypes:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.INT32],
        h: pl.Tensor[[16, 64], pl.BF16],
        q: pl.Tensor[[16, 64], pl.INT8],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.add(x, 0.5)
        b = pl.mul(h, 3.3)
        c = pl.sub(q, 0.25)
        d = pl.div(x, 4.0)
        m = pl.maximum(q, 0.5)
        lo = pl.minimum(h, -0.3)
        r = pl.add(pl.add(pl.add(a, b), pl.add(c, d)), pl.add(m, lo))
        out = pl.assemble(out, r, [0, 0])
        return out
