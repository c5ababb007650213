import pl


# A slice with a narrower valid_shape inside an InCore function is a tile.load of its valid
# region: the rest is padding (zero in pl.interpret), not the window's data, on both sides. Ops
# that read past the valid region (a comparison, a matmul, a transpose, a reshape or
# set_validshape that declares the whole shape valid) see that padding.
@pl.program
class NarrowedSlicePadding:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 64], pl.FP32],
        b: pl.Tensor[[64, 64], pl.FP32],
        cmp_out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        mm_out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        widened: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        reshaped: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        s = pl.slice(a, [16, 64], [0, 0], valid_shape=[8, 64])
        c = pl.tensor.cmp(s, 0.0, cmp_type=4)
        cmp_out = pl.assemble(cmp_out, c, [0, 0])
        m = pl.matmul(s, b)
        mm_out = pl.assemble(mm_out, m, [0, 0])
        e = pl.tensor.set_validshape(pl.exp(s), 16, 64)
        widened = pl.assemble(widened, e, [0, 0])
        r = pl.tensor.reshape(pl.tensor.reshape(s, [64, 16]), [16, 64], [16, 64])
        reshaped = pl.assemble(reshaped, r, [0, 0])
        return reshaped
