"""A matmul whose [M, N] accumulator overflows L0C and whose K overflows L0A/L0B.

[256, 512] x [512, 288] INT8 -> INT32. auto_tile_matmul_l0 folds the product into its one store:
an unrolled grid of output blocks, each a pipelined K loop stored where it belongs, the output
tensor chained through the stores.
"""

import pl


@pl.program
class SplitKGrid:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[256, 512], pl.INT8],
        rhs: pl.Tensor[[512, 288], pl.INT8],
        out: pl.Out[pl.Tensor[[256, 288], pl.INT32]],
    ) -> pl.Tensor[[256, 288], pl.INT32]:
        lhs_mat: pl.Tile[[256, 512], pl.INT8, pl.MemorySpace.Mat] = pl.tile.load(
            lhs, [0, 0], [256, 512], [256, 512], target_memory=pl.MemorySpace.Mat
        )
        rhs_mat: pl.Tile[[512, 288], pl.INT8, pl.MemorySpace.Mat] = pl.tile.load(
            rhs, [0, 0], [512, 288], [512, 288], target_memory=pl.MemorySpace.Mat
        )
        c_t0_l0_init: pl.Tile[[256, 128], pl.INT32, pl.MemorySpace.Acc] = pl.tile.create(
            [256, 128], dtype=pl.INT32, target_memory=pl.MemorySpace.Acc
        )
        for c_t0_l0_ko, (c_t0_l0_c,) in pl.pipeline(0, 512, 128, init_values=(c_t0_l0_init,), stage=2):
            c_t0_l0_a: pl.Tile[
                [256, 128],
                pl.INT8,
                pl.MemorySpace.Left,
                pl.TileView(blayout=pl.TileLayout.row_major),
            ] = pl.tile.extract(
                lhs_mat, 0, c_t0_l0_ko, [256, 128], target_memory=pl.MemorySpace.Left
            )
            c_t0_l0_b: pl.Tile[[128, 128], pl.INT8, pl.MemorySpace.Right] = pl.tile.extract(
                rhs_mat, c_t0_l0_ko, 0, [128, 128], target_memory=pl.MemorySpace.Right
            )
            if c_t0_l0_ko == 0:
                c_t0_l0_c_first: pl.Tile[[256, 128], pl.INT32, pl.MemorySpace.Acc] = pl.tile.matmul(
                    c_t0_l0_a, c_t0_l0_b
                )
            else:
                c_t0_l0_c_first: pl.Tile[
                    [256, 128],
                    pl.INT32,
                    pl.MemorySpace.Acc,
                ] = pl.tile.matmul_acc(c_t0_l0_c, c_t0_l0_a, c_t0_l0_b)
            c_t0: pl.Tile[[256, 128], pl.INT32, pl.MemorySpace.Acc] = pl.yield_(c_t0_l0_c_first)
        out_t0: pl.Tensor[[256, 288], pl.INT32] = pl.tile.store(c_t0, [0, 0], out)
        c_t1_l0_init: pl.Tile[[256, 128], pl.INT32, pl.MemorySpace.Acc] = pl.tile.create(
            [256, 128], dtype=pl.INT32, target_memory=pl.MemorySpace.Acc
        )
        for c_t1_l0_ko, (c_t1_l0_c,) in pl.pipeline(0, 512, 128, init_values=(c_t1_l0_init,), stage=2):
            c_t1_l0_a: pl.Tile[
                [256, 128],
                pl.INT8,
                pl.MemorySpace.Left,
                pl.TileView(blayout=pl.TileLayout.row_major),
            ] = pl.tile.extract(
                lhs_mat, 0, c_t1_l0_ko, [256, 128], target_memory=pl.MemorySpace.Left
            )
            c_t1_l0_b: pl.Tile[[128, 128], pl.INT8, pl.MemorySpace.Right] = pl.tile.extract(
                rhs_mat, c_t1_l0_ko, 128, [128, 128], target_memory=pl.MemorySpace.Right
            )
            if c_t1_l0_ko == 0:
                c_t1_l0_c_first: pl.Tile[[256, 128], pl.INT32, pl.MemorySpace.Acc] = pl.tile.matmul(
                    c_t1_l0_a, c_t1_l0_b
                )
            else:
                c_t1_l0_c_first: pl.Tile[
                    [256, 128],
                    pl.INT32,
                    pl.MemorySpace.Acc,
                ] = pl.tile.matmul_acc(c_t1_l0_c, c_t1_l0_a, c_t1_l0_b)
            c_t1: pl.Tile[[256, 128], pl.INT32, pl.MemorySpace.Acc] = pl.yield_(c_t1_l0_c_first)
        out_t1: pl.Tensor[[256, 288], pl.INT32] = pl.tile.store(c_t1, [0, 128], out_t0)
        c_t2_l0_init: pl.Tile[[256, 32], pl.INT32, pl.MemorySpace.Acc] = pl.tile.create(
            [256, 32], dtype=pl.INT32, target_memory=pl.MemorySpace.Acc
        )
        for c_t2_l0_ko, (c_t2_l0_c,) in pl.pipeline(0, 512, 128, init_values=(c_t2_l0_init,), stage=2):
            c_t2_l0_a: pl.Tile[
                [256, 128],
                pl.INT8,
                pl.MemorySpace.Left,
                pl.TileView(blayout=pl.TileLayout.row_major),
            ] = pl.tile.extract(
                lhs_mat, 0, c_t2_l0_ko, [256, 128], target_memory=pl.MemorySpace.Left
            )
            c_t2_l0_b: pl.Tile[[128, 32], pl.INT8, pl.MemorySpace.Right] = pl.tile.extract(
                rhs_mat, c_t2_l0_ko, 256, [128, 32], target_memory=pl.MemorySpace.Right
            )
            if c_t2_l0_ko == 0:
                c_t2_l0_c_first: pl.Tile[[256, 32], pl.INT32, pl.MemorySpace.Acc] = pl.tile.matmul(
                    c_t2_l0_a, c_t2_l0_b
                )
            else:
                c_t2_l0_c_first: pl.Tile[
                    [256, 32],
                    pl.INT32,
                    pl.MemorySpace.Acc,
                ] = pl.tile.matmul_acc(c_t2_l0_c, c_t2_l0_a, c_t2_l0_b)
            c_t2: pl.Tile[[256, 32], pl.INT32, pl.MemorySpace.Acc] = pl.yield_(c_t2_l0_c_first)
        out_t2: pl.Tensor[[256, 288], pl.INT32] = pl.tile.store(c_t2, [0, 256], out_t1)
        # the store the output blocks replace
        return out_t2
