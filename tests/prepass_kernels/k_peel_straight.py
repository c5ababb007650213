# pass: auto_tile_matmul_l0  backend: 910B
"""K only, one full block: k = 160 does not divide K = 304, so one straight-line block and then the
144-wide tail (no 1-trip loop).
"""

import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[64, 304], pl.INT8],
        rhs: pl.Tensor[[304, 128], pl.INT8],
        out: pl.Out[pl.Tensor[[64, 128], pl.INT32]],
    ) -> pl.Tensor[[64, 128], pl.INT32]:
        lhs_mat = pl.load(lhs, [0, 0], [64, 304], target_memory=pl.MemorySpace.Mat)
        rhs_mat = pl.load(rhs, [0, 0], [304, 128], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(lhs_mat, rhs_mat)
        out = pl.store(c, [0, 0], out)
        return out


@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[64, 304], pl.INT8],
        rhs: pl.Tensor[[304, 128], pl.INT8],
        out: pl.Out[pl.Tensor[[64, 128], pl.INT32]],
    ) -> pl.Tensor[[64, 128], pl.INT32]:
        lhs_mat: pl.Tile[[64, 304], pl.INT8, pl.MemorySpace.Mat] = pl.tile.load(
            lhs, [0, 0], [64, 304], [64, 304], target_memory=pl.MemorySpace.Mat
        )
        rhs_mat: pl.Tile[[304, 128], pl.INT8, pl.MemorySpace.Mat] = pl.tile.load(
            rhs, [0, 0], [304, 128], [304, 128], target_memory=pl.MemorySpace.Mat
        )
        c_l0_a0: pl.Tile[[64, 160], pl.INT8, pl.MemorySpace.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(
            lhs_mat,
            0,
            0,
            [64, 160],
            target_memory=pl.MemorySpace.Left,
        )
        c_l0_b0: pl.Tile[[160, 128], pl.INT8, pl.MemorySpace.Right] = pl.tile.extract(
            rhs_mat, 0, 0, [160, 128], target_memory=pl.MemorySpace.Right
        )
        c_l0_c0: pl.Tile[[64, 128], pl.INT32, pl.MemorySpace.Acc] = pl.tile.matmul(
            c_l0_a0, c_l0_b0
        )
        c_l0_at: pl.Tile[[64, 144], pl.INT8, pl.MemorySpace.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(
            lhs_mat,
            0,
            160,
            [64, 144],
            target_memory=pl.MemorySpace.Left,
        )
        c_l0_bt: pl.Tile[[144, 128], pl.INT8, pl.MemorySpace.Right] = pl.tile.extract(
            rhs_mat, 160, 0, [144, 128], target_memory=pl.MemorySpace.Right
        )
        c_l0_ct: pl.Tile[[64, 128], pl.INT32, pl.MemorySpace.Acc] = pl.tile.matmul_acc(
            c_l0_c0, c_l0_at, c_l0_bt
        )
        out: pl.Tensor[[64, 128], pl.INT32] = pl.tile.store(
            c_l0_ct, [0, 0], out
        )
        return out
