# pass: auto_tile_matmul_l0  backend: 910B
"""Full K, the product valid on [187, 93] of [192, 100]: a full [192, 64] block would reach past
the valid rows, and an extract at a loop offset cannot say how far its window is valid, so every
block is written straight-line at constant offsets (each extract's valid window exact), stored
into a larger output at [16, 32].
"""

import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[192, 16], pl.FP16],
        rhs: pl.Tensor[[16, 100], pl.FP16],
        out: pl.Out[pl.Tensor[[208, 132], pl.FP32]],
    ) -> pl.Tensor[[208, 132], pl.FP32]:
        lhs_mat = pl.load(lhs, [0, 0], [192, 16], [187, 16], target_memory=pl.MemorySpace.Mat)
        rhs_mat = pl.load(rhs, [0, 0], [16, 100], [16, 93], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(lhs_mat, rhs_mat)
        out = pl.store(c, [16, 32], out)
        return out


@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[192, 16], pl.FP16],
        rhs: pl.Tensor[[16, 100], pl.FP16],
        out: pl.Out[pl.Tensor[[208, 132], pl.FP32]],
    ) -> pl.Tensor[[208, 132], pl.FP32]:
        lhs_mat: pl.Tile[[192, 16], pl.FP16, pl.MemorySpace.Mat, pl.TileView(valid_shape=[187, 16])] = pl.tile.load(
            lhs,
            [0, 0],
            [192, 16],
            [187, 16],
            target_memory=pl.MemorySpace.Mat,
        )
        rhs_mat: pl.Tile[[16, 100], pl.FP16, pl.MemorySpace.Mat, pl.TileView(valid_shape=[16, 93])] = pl.tile.load(
            rhs,
            [0, 0],
            [16, 100],
            [16, 93],
            target_memory=pl.MemorySpace.Mat,
        )
        c_ta1: pl.Tile[[192, 16], pl.FP16, pl.MemorySpace.Left, pl.TileView(valid_shape=[187, 16], blayout=pl.TileLayout.row_major, compact=pl.CompactMode.normal)] = pl.tile.extract(
            lhs_mat,
            0,
            0,
            [192, 16],
            target_memory=pl.MemorySpace.Left,
        )
        c_tb1: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Right] = pl.tile.extract(
            rhs_mat, 0, 0, [16, 64], target_memory=pl.MemorySpace.Right
        )
        c_tc1: pl.Tile[[192, 64], pl.FP32, pl.MemorySpace.Acc, pl.TileView(valid_shape=[187, 64], compact=pl.CompactMode.normal)] = pl.tile.matmul(
            c_ta1,
            c_tb1,
        )
        out_t1: pl.Tensor[[208, 132], pl.FP32] = pl.tile.store(
            c_tc1, [16, 32], out
        )
        c_ta2: pl.Tile[[192, 16], pl.FP16, pl.MemorySpace.Left, pl.TileView(valid_shape=[187, 16], blayout=pl.TileLayout.row_major, compact=pl.CompactMode.normal)] = pl.tile.extract(
            lhs_mat,
            0,
            0,
            [192, 16],
            target_memory=pl.MemorySpace.Left,
        )
        c_tb2: pl.Tile[[16, 36], pl.FP16, pl.MemorySpace.Right, pl.TileView(valid_shape=[16, 29], compact=pl.CompactMode.normal)] = pl.tile.extract(
            rhs_mat,
            0,
            64,
            [16, 36],
            target_memory=pl.MemorySpace.Right,
        )
        c_tc2: pl.Tile[[192, 36], pl.FP32, pl.MemorySpace.Acc, pl.TileView(valid_shape=[187, 29], compact=pl.CompactMode.normal)] = pl.tile.matmul(
            c_ta2,
            c_tb2,
        )
        out_t2: pl.Tensor[[208, 132], pl.FP32] = pl.tile.store(
            c_tc2, [16, 96], out_t1
        )
        return out_t2
