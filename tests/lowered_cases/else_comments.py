"""A tensor-level kernel with an if: shown as it compiles, the comments written before, on and
at the end of its `else:` stay at its `else:`."""

import pl


@pl.program
class ElseComments:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[8, 128], pl.FP32],
        flip: pl.Scalar[pl.BOOL],
        out: pl.Out[pl.Tensor[[8, 128], pl.FP32]],
    ) -> pl.Tensor[[8, 128], pl.FP32]:
        if flip:  # negated
            y = pl.neg(x)
        # otherwise
        else:  # kept as it is
            y = pl.mul(x, 1.0)
            # (end of the else block)
        out = pl.assemble(out, y, [0, 0])
        return out
