# pass: auto_tile_matmul_l0  backend: 910B
"""Full K, output-stationary: both loops pipelined (stage 2, stores not overlapped); holding B is
cheaper here, so the columns loop is outside.
"""

import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[640, 64], pl.BF16],
        rhs: pl.Tensor[[64, 128], pl.BF16],
        out: pl.Out[pl.Tensor[[640, 128], pl.FP32]],
    ) -> pl.Tensor[[640, 128], pl.FP32]:
        lhs_mat = pl.load(lhs, [0, 0], [640, 64], target_memory=pl.MemorySpace.Mat)
        rhs_mat = pl.load(rhs, [0, 0], [64, 128], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(lhs_mat, rhs_mat)
        out = pl.store(c, [0, 0], out)
        return out


@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[640, 64], pl.BF16],
        rhs: pl.Tensor[[64, 128], pl.BF16],
        out: pl.Out[pl.Tensor[[640, 128], pl.FP32]],
    ) -> pl.Tensor[[640, 128], pl.FP32]:
        lhs_mat: pl.Tile[[640, 64], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(
            lhs, [0, 0], [640, 64], [640, 64], target_memory=pl.MemorySpace.Mat
        )
        rhs_mat: pl.Tile[[64, 128], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(
            rhs, [0, 0], [64, 128], [64, 128], target_memory=pl.MemorySpace.Mat
        )
        for c_o, (c_oc,) in pl.pipeline(0, 128, 128, init_values=(out,), stage=2, attrs={"pipeline_overlap_stores": False}):
            c_b: pl.Tile[[64, 128], pl.BF16, pl.MemorySpace.Right] = pl.tile.extract(
                rhs_mat, 0, c_o, [64, 128], target_memory=pl.MemorySpace.Right
            )
            for c_i, (c_ic,) in pl.pipeline(0, 640, 160, init_values=(c_oc,), stage=2, attrs={"pipeline_overlap_stores": False}):
                c_a: pl.Tile[[160, 64], pl.BF16, pl.MemorySpace.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(
                    lhs_mat,
                    c_i,
                    0,
                    [160, 64],
                    target_memory=pl.MemorySpace.Left,
                )
                c_c: pl.Tile[[160, 128], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(
                    c_a, c_b
                )
                out_t0: pl.Tensor[[640, 128], pl.FP32] = pl.tile.store(
                    c_c, [c_i, c_o], c_ic
                )
                c_irv: pl.Tensor[[640, 128], pl.FP32] = pl.yield_(out_t0)
            c_orv: pl.Tensor[[640, 128], pl.FP32] = pl.yield_(c_irv)
        return c_orv
