"""Two scopes, each taking the square root of a tile of its own shape inside another call: the
compiler names both roots alike, each in the function it outlines its scope into; written in
one function, they are two values, named apart."""

import pl


@pl.program
class TwoRoots:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        col: pl.Tensor[[16, 1], pl.FP32],
        row: pl.Tensor[[1, 16], pl.FP32],
        out_col: pl.Out[pl.Tensor[[16, 1], pl.FP32]],
        out_row: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
    ) -> tuple[pl.Tensor[[16, 1], pl.FP32], pl.Tensor[[1, 16], pl.FP32]]:
        with pl.at(level=pl.Level.CORE_GROUP):
            inv_col = pl.recip(pl.sqrt(col))  # a column
            out_col = pl.assemble(out_col, inv_col, [0, 0])
        with pl.at(level=pl.Level.CORE_GROUP):
            inv_row = pl.recip(pl.sqrt(row))  # a row
            out_row = pl.assemble(out_row, inv_row, [0, 0])
        return out_col, out_row
