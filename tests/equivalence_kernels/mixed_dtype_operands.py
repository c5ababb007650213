import pl


# Tensor operands of two dtypes where the tile op takes one: a row broadcast of a BF16 column
# onto an FP32 tensor (tile.row_expand_add) and a concat of an INT32 tensor onto an FP32 one
# (tile.concat). Each operand is cast to the tensor-level result dtype first.
@pl.program
class MixedDtypeOperands:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        c: pl.Tensor[[16, 1], pl.BF16],
        n: pl.Tensor[[16, 64], pl.INT32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        r = pl.add(x, c)
        j = pl.tensor.concat(r, n)
        out = pl.assemble(out, j, [0, 0])
        return out
