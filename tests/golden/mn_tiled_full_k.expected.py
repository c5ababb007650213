"""A matmul whose [M, N] accumulator overflows L0C, with K fitting L0 whole.

[272, 64] x [64, 416] BF16 -> FP32 (442 KiB, more than either backend's L0C). The product is read
once, by a store, so auto_tile_matmul_l0 folds it into that store: the full [m, n] blocks run in
two nested pipelined loops (the held panel's loop outside), each block stored where it belongs,
and the partial border blocks are written out after them; the output tensor is chained through
the stores.
"""

import pl


@pl.program
class FullKPanel:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[272, 64], pl.BF16],
        rhs: pl.Tensor[[64, 416], pl.BF16],
        out: pl.Out[pl.Tensor[[272, 416], pl.FP32]],
    ) -> pl.Tensor[[272, 416], pl.FP32]:
        lhs_mat: pl.Tile[[272, 64], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(
            lhs, [0, 0], [272, 64], [272, 64], target_memory=pl.MemorySpace.Mat
        )
        rhs_mat: pl.Tile[[64, 416], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(
            rhs, [0, 0], [64, 416], [64, 416], target_memory=pl.MemorySpace.Mat
        )
        # 272 x 416 fp32 is 442 KiB: more than either backend's L0C
        for c_o, (c_oc,) in pl.pipeline(0, 256, 256, init_values=(out,), stage=2, attrs={"pipeline_overlap_stores": False}):
            c_b: pl.Tile[[64, 256], pl.BF16, pl.MemorySpace.Right] = pl.tile.extract(
                rhs_mat, 0, c_o, [64, 256], target_memory=pl.MemorySpace.Right
            )
            for c_i, (c_ic,) in pl.pipeline(0, 192, 96, init_values=(c_oc,), stage=2, attrs={"pipeline_overlap_stores": False}):
                c_a: pl.Tile[
                    [96, 64],
                    pl.BF16,
                    pl.MemorySpace.Left,
                    pl.TileView(blayout=pl.TileLayout.row_major),
                ] = pl.tile.extract(lhs_mat, c_i, 0, [96, 64], target_memory=pl.MemorySpace.Left)
                c_c: pl.Tile[[96, 256], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(c_a, c_b)
                out_t0: pl.Tensor[[272, 416], pl.FP32] = pl.tile.store(c_c, [c_i, c_o], c_ic)
                c_irv: pl.Tensor[[272, 416], pl.FP32] = pl.yield_(out_t0)
            c_orv: pl.Tensor[[272, 416], pl.FP32] = pl.yield_(c_irv)
        c_ta1: pl.Tile[
            [80, 64],
            pl.BF16,
            pl.MemorySpace.Left,
            pl.TileView(blayout=pl.TileLayout.row_major),
        ] = pl.tile.extract(lhs_mat, 192, 0, [80, 64], target_memory=pl.MemorySpace.Left)
        c_tb1: pl.Tile[[64, 256], pl.BF16, pl.MemorySpace.Right] = pl.tile.extract(
            rhs_mat, 0, 0, [64, 256], target_memory=pl.MemorySpace.Right
        )
        c_tc1: pl.Tile[[80, 256], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(c_ta1, c_tb1)
        out_t1: pl.Tensor[[272, 416], pl.FP32] = pl.tile.store(c_tc1, [192, 0], c_orv)
        c_ta2: pl.Tile[
            [80, 64],
            pl.BF16,
            pl.MemorySpace.Left,
            pl.TileView(blayout=pl.TileLayout.row_major),
        ] = pl.tile.extract(lhs_mat, 192, 0, [80, 64], target_memory=pl.MemorySpace.Left)
        c_tb2: pl.Tile[[64, 160], pl.BF16, pl.MemorySpace.Right] = pl.tile.extract(
            rhs_mat, 0, 256, [64, 160], target_memory=pl.MemorySpace.Right
        )
        c_tc2: pl.Tile[[80, 160], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(c_ta2, c_tb2)
        out_t2: pl.Tensor[[272, 416], pl.FP32] = pl.tile.store(c_tc2, [192, 256], out_t1)
        c_ta3: pl.Tile[
            [96, 64],
            pl.BF16,
            pl.MemorySpace.Left,
            pl.TileView(blayout=pl.TileLayout.row_major),
        ] = pl.tile.extract(lhs_mat, 0, 0, [96, 64], target_memory=pl.MemorySpace.Left)
        c_tb3: pl.Tile[[64, 160], pl.BF16, pl.MemorySpace.Right] = pl.tile.extract(
            rhs_mat, 0, 256, [64, 160], target_memory=pl.MemorySpace.Right
        )
        c_tc3: pl.Tile[[96, 160], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(c_ta3, c_tb3)
        out_t3: pl.Tensor[[272, 416], pl.FP32] = pl.tile.store(c_tc3, [0, 256], out_t2)
        c_ta4: pl.Tile[
            [96, 64],
            pl.BF16,
            pl.MemorySpace.Left,
            pl.TileView(blayout=pl.TileLayout.row_major),
        ] = pl.tile.extract(lhs_mat, 96, 0, [96, 64], target_memory=pl.MemorySpace.Left)
        c_tb4: pl.Tile[[64, 160], pl.BF16, pl.MemorySpace.Right] = pl.tile.extract(
            rhs_mat, 0, 256, [64, 160], target_memory=pl.MemorySpace.Right
        )
        c_tc4: pl.Tile[[96, 160], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(c_ta4, c_tb4)
        out_t4: pl.Tensor[[272, 416], pl.FP32] = pl.tile.store(c_tc4, [96, 256], out_t3)
        return out_t4
