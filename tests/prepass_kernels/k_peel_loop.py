# pass: auto_tile_matmul_l0  backend: 910B
"""K only: three full 176-wide blocks in the pipelined K loop, then the 160-wide tail accumulated
onto the loop's result.
"""

import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[64, 688], pl.INT8],
        rhs: pl.Tensor[[688, 128], pl.INT8],
        out: pl.Out[pl.Tensor[[64, 128], pl.INT32]],
    ) -> pl.Tensor[[64, 128], pl.INT32]:
        lhs_mat = pl.load(lhs, [0, 0], [64, 688], target_memory=pl.MemorySpace.Mat)
        rhs_mat = pl.load(rhs, [0, 0], [688, 128], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(lhs_mat, rhs_mat)
        out = pl.store(c, [0, 0], out)
        return out


@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[64, 688], pl.INT8],
        rhs: pl.Tensor[[688, 128], pl.INT8],
        out: pl.Out[pl.Tensor[[64, 128], pl.INT32]],
    ) -> pl.Tensor[[64, 128], pl.INT32]:
        lhs_mat: pl.Tile[[64, 688], pl.INT8, pl.MemorySpace.Mat] = pl.tile.load(
            lhs, [0, 0], [64, 688], [64, 688], target_memory=pl.MemorySpace.Mat
        )
        rhs_mat: pl.Tile[[688, 128], pl.INT8, pl.MemorySpace.Mat] = pl.tile.load(
            rhs, [0, 0], [688, 128], [688, 128], target_memory=pl.MemorySpace.Mat
        )
        c_l0_init: pl.Tile[[64, 128], pl.INT32, pl.MemorySpace.Acc] = pl.tile.create(
            [64, 128], dtype=pl.INT32, target_memory=pl.MemorySpace.Acc
        )
        for c_l0_ko, (c_l0_c,) in pl.pipeline(0, 528, 176, init_values=(c_l0_init,), stage=2):
            c_l0_a: pl.Tile[[64, 176], pl.INT8, pl.MemorySpace.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(
                lhs_mat,
                0,
                c_l0_ko,
                [64, 176],
                target_memory=pl.MemorySpace.Left,
            )
            c_l0_b: pl.Tile[[176, 128], pl.INT8, pl.MemorySpace.Right] = pl.tile.extract(
                rhs_mat, c_l0_ko, 0, [176, 128], target_memory=pl.MemorySpace.Right
            )
            if c_l0_ko == 0:
                c_l0_c_first: pl.Tile[[64, 128], pl.INT32, pl.MemorySpace.Acc] = pl.tile.matmul(
                    c_l0_a,
                    c_l0_b,
                )
                c_l0_c_phi: pl.Tile[[64, 128], pl.INT32, pl.MemorySpace.Acc] = pl.yield_(
                    c_l0_c_first
                )
            else:
                c_l0_c_acc: pl.Tile[[64, 128], pl.INT32, pl.MemorySpace.Acc] = pl.tile.matmul_acc(
                    c_l0_c,
                    c_l0_a,
                    c_l0_b,
                )
                c_l0_c_phi: pl.Tile[[64, 128], pl.INT32, pl.MemorySpace.Acc] = pl.yield_(
                    c_l0_c_acc
                )
            c_l0_kmain: pl.Tile[[64, 128], pl.INT32, pl.MemorySpace.Acc] = pl.yield_(
                c_l0_c_phi
            )
        c_l0_at: pl.Tile[[64, 160], pl.INT8, pl.MemorySpace.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(
            lhs_mat,
            0,
            528,
            [64, 160],
            target_memory=pl.MemorySpace.Left,
        )
        c_l0_bt: pl.Tile[[160, 128], pl.INT8, pl.MemorySpace.Right] = pl.tile.extract(
            rhs_mat, 528, 0, [160, 128], target_memory=pl.MemorySpace.Right
        )
        c_l0_ct: pl.Tile[[64, 128], pl.INT32, pl.MemorySpace.Acc] = pl.tile.matmul_acc(
            c_l0_kmain, c_l0_at, c_l0_bt
        )
        out: pl.Tensor[[64, 128], pl.INT32] = pl.tile.store(
            c_l0_ct, [0, 0], out
        )
        return out
