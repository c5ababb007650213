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
            col_vec: pl.Tile[[16, 1], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
                col, [0, 0], [16, 1], [16, 1], target_memory=pl.MemorySpace.Vec
            )
            sqrt_vec: pl.Tile[[16, 1], pl.FP32, pl.MemorySpace.Vec] = pl.tile.sqrt(col_vec)  # a column
            inv_col_vec: pl.Tile[[16, 1], pl.FP32, pl.MemorySpace.Vec] = pl.tile.recip(sqrt_vec)
            out_col: pl.Tensor[[16, 1], pl.FP32] = pl.tile.store(inv_col_vec, [0, 0], out_col)
        with pl.at(level=pl.Level.CORE_GROUP):
            row_vec: pl.Tile[[1, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
                row, [0, 0], [1, 16], [1, 16], target_memory=pl.MemorySpace.Vec
            )
            sqrt_vec_1: pl.Tile[[1, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tile.sqrt(row_vec)  # a row
            inv_row_vec: pl.Tile[[1, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tile.recip(sqrt_vec_1)
            out_row: pl.Tensor[[1, 16], pl.FP32] = pl.tile.store(inv_row_vec, [0, 0], out_row)
        return out_col, out_row
