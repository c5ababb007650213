# pass: auto_tile_matmul_l0  backend: 910B
"""K only, the product valid on [90, 120]: the K loop's carry starts from an Acc tile narrowed to
that region, and the peeled last K block accumulates onto it.
"""

import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[96, 688], pl.INT8],
        rhs: pl.Tensor[[688, 128], pl.INT8],
        out: pl.Out[pl.Tensor[[96, 128], pl.INT32]],
    ) -> pl.Tensor[[96, 128], pl.INT32]:
        lhs_mat = pl.load(lhs, [0, 0], [96, 688], [90, 688], target_memory=pl.MemorySpace.Mat)
        rhs_mat = pl.load(rhs, [0, 0], [688, 128], [688, 120], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(lhs_mat, rhs_mat)
        out = pl.store(c, [0, 0], out)
        return out


@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[96, 688], pl.INT8],
        rhs: pl.Tensor[[688, 128], pl.INT8],
        out: pl.Out[pl.Tensor[[96, 128], pl.INT32]],
    ) -> pl.Tensor[[96, 128], pl.INT32]:
        lhs_mat: pl.Tile[[96, 688], pl.INT8, pl.MemorySpace.Mat, pl.TileView(valid_shape=[90, 688])] = pl.tile.load(
            lhs,
            [0, 0],
            [96, 688],
            [90, 688],
            target_memory=pl.MemorySpace.Mat,
        )
        rhs_mat: pl.Tile[[688, 128], pl.INT8, pl.MemorySpace.Mat, pl.TileView(valid_shape=[688, 120])] = pl.tile.load(
            rhs,
            [0, 0],
            [688, 128],
            [688, 120],
            target_memory=pl.MemorySpace.Mat,
        )
        c_l0_init_storage: pl.Tile[[96, 128], pl.INT32, pl.MemorySpace.Acc] = pl.tile.create(
            [96, 128],
            dtype=pl.INT32,
            target_memory=pl.MemorySpace.Acc,
        )
        c_l0_init: pl.Tile[[96, 128], pl.INT32, pl.MemorySpace.Acc, pl.TileView(valid_shape=[90, 120])] = pl.tile.set_validshape(
            c_l0_init_storage,
            90,
            120,
        )
        for c_l0_ko, (c_l0_c,) in pl.pipeline(0, 528, 176, init_values=(c_l0_init,), stage=2):
            c_l0_a: pl.Tile[[96, 176], pl.INT8, pl.MemorySpace.Left, pl.TileView(valid_shape=[90, 176], blayout=pl.TileLayout.row_major, compact=pl.CompactMode.normal)] = pl.tile.extract(
                lhs_mat,
                0,
                c_l0_ko,
                [96, 176],
                target_memory=pl.MemorySpace.Left,
            )
            c_l0_b: pl.Tile[[176, 128], pl.INT8, pl.MemorySpace.Right, pl.TileView(valid_shape=[176, 120], compact=pl.CompactMode.normal)] = pl.tile.extract(
                rhs_mat,
                c_l0_ko,
                0,
                [176, 128],
                target_memory=pl.MemorySpace.Right,
            )
            if c_l0_ko == 0:
                c_l0_c_first: pl.Tile[[96, 128], pl.INT32, pl.MemorySpace.Acc, pl.TileView(valid_shape=[90, 120], compact=pl.CompactMode.normal)] = pl.tile.matmul(
                    c_l0_a,
                    c_l0_b,
                )
                c_l0_c_phi: pl.Tile[[96, 128], pl.INT32, pl.MemorySpace.Acc, pl.TileView(valid_shape=[90, 120], compact=pl.CompactMode.normal)] = pl.yield_(
                    c_l0_c_first,
                )
            else:
                c_l0_c_acc: pl.Tile[[96, 128], pl.INT32, pl.MemorySpace.Acc, pl.TileView(valid_shape=[90, 120])] = pl.tile.matmul_acc(
                    c_l0_c,
                    c_l0_a,
                    c_l0_b,
                )
                c_l0_c_phi: pl.Tile[[96, 128], pl.INT32, pl.MemorySpace.Acc, pl.TileView(valid_shape=[90, 120], compact=pl.CompactMode.normal)] = pl.yield_(
                    c_l0_c_acc,
                )
            c_l0_kmain: pl.Tile[[96, 128], pl.INT32, pl.MemorySpace.Acc, pl.TileView(valid_shape=[90, 120])] = pl.yield_(
                c_l0_c_phi,
            )
        c_l0_at: pl.Tile[[96, 160], pl.INT8, pl.MemorySpace.Left, pl.TileView(valid_shape=[90, 160], blayout=pl.TileLayout.row_major, compact=pl.CompactMode.normal)] = pl.tile.extract(
            lhs_mat,
            0,
            528,
            [96, 160],
            target_memory=pl.MemorySpace.Left,
        )
        c_l0_bt: pl.Tile[[160, 128], pl.INT8, pl.MemorySpace.Right, pl.TileView(valid_shape=[160, 120], compact=pl.CompactMode.normal)] = pl.tile.extract(
            rhs_mat,
            528,
            0,
            [160, 128],
            target_memory=pl.MemorySpace.Right,
        )
        c_l0_ct: pl.Tile[[96, 128], pl.INT32, pl.MemorySpace.Acc, pl.TileView(valid_shape=[90, 120])] = pl.tile.matmul_acc(
            c_l0_kmain,
            c_l0_at,
            c_l0_bt,
        )
        out: pl.Tensor[[96, 128], pl.INT32] = pl.tile.store(
            c_l0_ct, [0, 0], out
        )
        return out
