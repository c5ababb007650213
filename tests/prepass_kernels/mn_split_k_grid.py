# pass: auto_tile_matmul_l0  backend: 950
"""K split too: an unrolled N-major grid of K loops (m = 272, n = 96, k = 96 on 950): three output
blocks, each a pipelined K loop whose last, partial K block (512 = 5 x 96 + 32) follows it.
"""

import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[272, 512], pl.INT8],
        rhs: pl.Tensor[[512, 288], pl.INT8],
        out: pl.Out[pl.Tensor[[272, 288], pl.INT32]],
    ) -> pl.Tensor[[272, 288], pl.INT32]:
        lhs_mat = pl.load(lhs, [0, 0], [272, 512], target_memory=pl.MemorySpace.Mat)
        rhs_mat = pl.load(rhs, [0, 0], [512, 288], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(lhs_mat, rhs_mat)
        out = pl.store(c, [0, 0], out)
        return out


@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[272, 512], pl.INT8],
        rhs: pl.Tensor[[512, 288], pl.INT8],
        out: pl.Out[pl.Tensor[[272, 288], pl.INT32]],
    ) -> pl.Tensor[[272, 288], pl.INT32]:
        lhs_mat: pl.Tile[[272, 512], pl.INT8, pl.MemorySpace.Mat] = pl.tile.load(
            lhs, [0, 0], [272, 512], [272, 512], target_memory=pl.MemorySpace.Mat
        )
        rhs_mat: pl.Tile[[512, 288], pl.INT8, pl.MemorySpace.Mat] = pl.tile.load(
            rhs, [0, 0], [512, 288], [512, 288], target_memory=pl.MemorySpace.Mat
        )
        c_t0_l0_init: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.tile.create(
            [272, 96], dtype=pl.INT32, target_memory=pl.MemorySpace.Acc
        )
        for c_t0_l0_ko, (c_t0_l0_c,) in pl.pipeline(0, 480, 96, init_values=(c_t0_l0_init,), stage=2):
            c_t0_l0_a: pl.Tile[[272, 96], pl.INT8, pl.MemorySpace.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(
                lhs_mat,
                0,
                c_t0_l0_ko,
                [272, 96],
                target_memory=pl.MemorySpace.Left,
            )
            c_t0_l0_b: pl.Tile[[96, 96], pl.INT8, pl.MemorySpace.Right] = pl.tile.extract(
                rhs_mat, c_t0_l0_ko, 0, [96, 96], target_memory=pl.MemorySpace.Right
            )
            if c_t0_l0_ko == 0:
                c_t0_l0_c_first: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.tile.matmul(
                    c_t0_l0_a,
                    c_t0_l0_b,
                )
                c_t0_l0_c_phi: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.yield_(
                    c_t0_l0_c_first
                )
            else:
                c_t0_l0_c_acc: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.tile.matmul_acc(
                    c_t0_l0_c,
                    c_t0_l0_a,
                    c_t0_l0_b,
                )
                c_t0_l0_c_phi: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.yield_(
                    c_t0_l0_c_acc
                )
            c_t0_l0_kmain: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.yield_(
                c_t0_l0_c_phi
            )
        c_t0_l0_at: pl.Tile[[272, 32], pl.INT8, pl.MemorySpace.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(
            lhs_mat,
            0,
            480,
            [272, 32],
            target_memory=pl.MemorySpace.Left,
        )
        c_t0_l0_bt: pl.Tile[[32, 96], pl.INT8, pl.MemorySpace.Right] = pl.tile.extract(
            rhs_mat, 480, 0, [32, 96], target_memory=pl.MemorySpace.Right
        )
        c_t0_l0_ct: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.tile.matmul_acc(
            c_t0_l0_kmain, c_t0_l0_at, c_t0_l0_bt
        )
        out_t0: pl.Tensor[[272, 288], pl.INT32] = pl.tile.store(
            c_t0_l0_ct, [0, 0], out
        )
        c_t1_l0_init: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.tile.create(
            [272, 96], dtype=pl.INT32, target_memory=pl.MemorySpace.Acc
        )
        for c_t1_l0_ko, (c_t1_l0_c,) in pl.pipeline(0, 480, 96, init_values=(c_t1_l0_init,), stage=2):
            c_t1_l0_a: pl.Tile[[272, 96], pl.INT8, pl.MemorySpace.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(
                lhs_mat,
                0,
                c_t1_l0_ko,
                [272, 96],
                target_memory=pl.MemorySpace.Left,
            )
            c_t1_l0_b: pl.Tile[[96, 96], pl.INT8, pl.MemorySpace.Right] = pl.tile.extract(
                rhs_mat,
                c_t1_l0_ko,
                96,
                [96, 96],
                target_memory=pl.MemorySpace.Right,
            )
            if c_t1_l0_ko == 0:
                c_t1_l0_c_first: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.tile.matmul(
                    c_t1_l0_a,
                    c_t1_l0_b,
                )
                c_t1_l0_c_phi: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.yield_(
                    c_t1_l0_c_first
                )
            else:
                c_t1_l0_c_acc: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.tile.matmul_acc(
                    c_t1_l0_c,
                    c_t1_l0_a,
                    c_t1_l0_b,
                )
                c_t1_l0_c_phi: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.yield_(
                    c_t1_l0_c_acc
                )
            c_t1_l0_kmain: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.yield_(
                c_t1_l0_c_phi
            )
        c_t1_l0_at: pl.Tile[[272, 32], pl.INT8, pl.MemorySpace.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(
            lhs_mat,
            0,
            480,
            [272, 32],
            target_memory=pl.MemorySpace.Left,
        )
        c_t1_l0_bt: pl.Tile[[32, 96], pl.INT8, pl.MemorySpace.Right] = pl.tile.extract(
            rhs_mat, 480, 96, [32, 96], target_memory=pl.MemorySpace.Right
        )
        c_t1_l0_ct: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.tile.matmul_acc(
            c_t1_l0_kmain, c_t1_l0_at, c_t1_l0_bt
        )
        out_t1: pl.Tensor[[272, 288], pl.INT32] = pl.tile.store(
            c_t1_l0_ct, [0, 96], out_t0
        )
        c_t2_l0_init: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.tile.create(
            [272, 96], dtype=pl.INT32, target_memory=pl.MemorySpace.Acc
        )
        for c_t2_l0_ko, (c_t2_l0_c,) in pl.pipeline(0, 480, 96, init_values=(c_t2_l0_init,), stage=2):
            c_t2_l0_a: pl.Tile[[272, 96], pl.INT8, pl.MemorySpace.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(
                lhs_mat,
                0,
                c_t2_l0_ko,
                [272, 96],
                target_memory=pl.MemorySpace.Left,
            )
            c_t2_l0_b: pl.Tile[[96, 96], pl.INT8, pl.MemorySpace.Right] = pl.tile.extract(
                rhs_mat,
                c_t2_l0_ko,
                192,
                [96, 96],
                target_memory=pl.MemorySpace.Right,
            )
            if c_t2_l0_ko == 0:
                c_t2_l0_c_first: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.tile.matmul(
                    c_t2_l0_a,
                    c_t2_l0_b,
                )
                c_t2_l0_c_phi: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.yield_(
                    c_t2_l0_c_first
                )
            else:
                c_t2_l0_c_acc: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.tile.matmul_acc(
                    c_t2_l0_c,
                    c_t2_l0_a,
                    c_t2_l0_b,
                )
                c_t2_l0_c_phi: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.yield_(
                    c_t2_l0_c_acc
                )
            c_t2_l0_kmain: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.yield_(
                c_t2_l0_c_phi
            )
        c_t2_l0_at: pl.Tile[[272, 32], pl.INT8, pl.MemorySpace.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(
            lhs_mat,
            0,
            480,
            [272, 32],
            target_memory=pl.MemorySpace.Left,
        )
        c_t2_l0_bt: pl.Tile[[32, 96], pl.INT8, pl.MemorySpace.Right] = pl.tile.extract(
            rhs_mat, 480, 192, [32, 96], target_memory=pl.MemorySpace.Right
        )
        c_t2_l0_ct: pl.Tile[[272, 96], pl.INT32, pl.MemorySpace.Acc] = pl.tile.matmul_acc(
            c_t2_l0_kmain, c_t2_l0_at, c_t2_l0_bt
        )
        out_t2: pl.Tensor[[272, 288], pl.INT32] = pl.tile.store(
            c_t2_l0_ct, [0, 192], out_t1
        )
        return out_t2
