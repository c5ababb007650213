# pass: auto_tile_matmul_l0  backend: 910B
"""Full K, B held: the columns loop is outside (sequential), the rows loop pipelined inside; 480 =
256 + 224, so the right border is two straight-line [112, 224] blocks.
"""

import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[224, 128], pl.BF16],
        rhs: pl.Tensor[[128, 480], pl.BF16],
        out: pl.Out[pl.Tensor[[224, 480], pl.FP32]],
    ) -> pl.Tensor[[224, 480], pl.FP32]:
        lhs_mat = pl.load(lhs, [0, 0], [224, 128], target_memory=pl.MemorySpace.Mat)
        rhs_mat = pl.load(rhs, [0, 0], [128, 480], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(lhs_mat, rhs_mat)
        out = pl.store(c, [0, 0], out)
        return out


@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[224, 128], pl.BF16],
        rhs: pl.Tensor[[128, 480], pl.BF16],
        out: pl.Out[pl.Tensor[[224, 480], pl.FP32]],
    ) -> pl.Tensor[[224, 480], pl.FP32]:
        lhs_mat: pl.Tile[[224, 128], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(
            lhs, [0, 0], [224, 128], [224, 128], target_memory=pl.MemorySpace.Mat
        )
        rhs_mat: pl.Tile[[128, 480], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(
            rhs, [0, 0], [128, 480], [128, 480], target_memory=pl.MemorySpace.Mat
        )
        for c_o, (c_oc,) in pl.range(0, 256, 256, init_values=(out,)):
            c_b: pl.Tile[[128, 256], pl.BF16, pl.MemorySpace.Right] = pl.tile.extract(
                rhs_mat, 0, c_o, [128, 256], target_memory=pl.MemorySpace.Right
            )
            for c_i, (c_ic,) in pl.pipeline(0, 224, 112, init_values=(c_oc,), stage=2, attrs={"pipeline_overlap_stores": False}):
                c_a: pl.Tile[[112, 128], pl.BF16, pl.MemorySpace.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(
                    lhs_mat,
                    c_i,
                    0,
                    [112, 128],
                    target_memory=pl.MemorySpace.Left,
                )
                c_c: pl.Tile[[112, 256], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(
                    c_a, c_b
                )
                out_t0: pl.Tensor[[224, 480], pl.FP32] = pl.tile.store(
                    c_c, [c_i, c_o], c_ic
                )
                c_irv: pl.Tensor[[224, 480], pl.FP32] = pl.yield_(out_t0)
            c_orv: pl.Tensor[[224, 480], pl.FP32] = pl.yield_(c_irv)
        c_ta1: pl.Tile[[112, 128], pl.BF16, pl.MemorySpace.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(
            lhs_mat,
            0,
            0,
            [112, 128],
            target_memory=pl.MemorySpace.Left,
        )
        c_tb1: pl.Tile[[128, 224], pl.BF16, pl.MemorySpace.Right] = pl.tile.extract(
            rhs_mat, 0, 256, [128, 224], target_memory=pl.MemorySpace.Right
        )
        c_tc1: pl.Tile[[112, 224], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(
            c_ta1, c_tb1
        )
        out_t1: pl.Tensor[[224, 480], pl.FP32] = pl.tile.store(
            c_tc1, [0, 256], c_orv
        )
        c_ta2: pl.Tile[[112, 128], pl.BF16, pl.MemorySpace.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(
            lhs_mat,
            112,
            0,
            [112, 128],
            target_memory=pl.MemorySpace.Left,
        )
        c_tb2: pl.Tile[[128, 224], pl.BF16, pl.MemorySpace.Right] = pl.tile.extract(
            rhs_mat, 0, 256, [128, 224], target_memory=pl.MemorySpace.Right
        )
        c_tc2: pl.Tile[[112, 224], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(
            c_ta2, c_tb2
        )
        out_t2: pl.Tensor[[224, 480], pl.FP32] = pl.tile.store(
            c_tc2, [112, 256], out_t1
        )
        return out_t2
