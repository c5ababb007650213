"""A tensor-level matmul of a transposed operand: its compiled view's type is longer than a
line, and is broken by the printer's rule."""

import pl


@pl.program
class LongView:
    @pl.function(type=pl.FunctionType.InCore)
    def scores(
        self,
        q: pl.Tensor[[16, 64], pl.FP16],
        k: pl.Tensor[[64, 64], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        # Q K^T: K is read transposed.
        s = pl.matmul(q, k, b_trans=True, out_dtype=pl.FP32)
        out = pl.assemble(out, s, [0, 0])
        return out
