import pl


# tensor.cmp of an INT32 tensor with a float scalar compares in FP32 and gives FP32 0/1, which the
# division of two comparisons shows (1 / 0 is inf, 0 / 0 NaN, where an INT32 division is not).
@pl.program
class CompareWithScalar:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.INT32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        ge = pl.tensor.cmp(x, 0.5, cmp_type=5)
        lt = pl.tensor.cmp(x, -2.5, cmp_type=2)
        r = pl.div(ge, lt)
        out = pl.assemble(out, r, [0, 0])
        return out
