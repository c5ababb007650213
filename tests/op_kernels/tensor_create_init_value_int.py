# expect: out = x * 3
import pl


# The integer form of tensor_create_init_value.py: the fill value takes the tensor's dtype.
@pl.program
class CreateInitValueInt:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.INT32],
        out: pl.Out[pl.Tensor[[16, 64], pl.INT32]],
    ) -> pl.Tensor[[16, 64], pl.INT32]:
        threes = pl.create_tensor([16, 64], dtype=pl.INT32, init_value=3)
        s = pl.mul(x, threes)
        out = pl.assemble(out, s, [0, 0])
        return out
