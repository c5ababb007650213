"""A tensor-level kernel with a comment on every line: shown as it compiles, every comment kept."""

import pl  # the DSL


@pl.program  # one program
class TensorComments:  # its class
    # the kernel, written with tensors
    @pl.function(type=pl.FunctionType.InCore)  # runs on a core
    def kernel(  # its signature, kept as written
        self,  # the program
        a: pl.Tensor[[16, 128], pl.FP32],  # first input
        b: pl.Tensor[[16, 128], pl.FP32],  # second input
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],  # the result
    ) -> pl.Tensor[[16, 128], pl.FP32]:  # returns it
        """Adds, then scales the sum (its docstring stays)."""
        # a comment before the sum

        s = pl.add(a, b)  # elementwise: a load of each operand, the add
        # a comment before the scaling
        t = pl.mul(s, 2.0)  # scaled
        out = pl.assemble(out, t, [0, 0])  # stored into out
        # a comment before the return
        return out  # the written tensor
        # a comment at the end of the body
