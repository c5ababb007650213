# pass: auto_tile_matmul_l0  backend: 910B
"""Full K, A held: [256, 96] fits L0A single-buffered, so the rows loop (one step) is sequential
and holds A while B's columns stream through a pipelined loop; 640 = 5 x 128, no border.
"""

import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[256, 96], pl.BF16],
        rhs: pl.Tensor[[96, 640], pl.BF16],
        out: pl.Out[pl.Tensor[[256, 640], pl.FP32]],
    ) -> pl.Tensor[[256, 640], pl.FP32]:
        lhs_mat = pl.load(lhs, [0, 0], [256, 96], target_memory=pl.MemorySpace.Mat)
        rhs_mat = pl.load(rhs, [0, 0], [96, 640], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(lhs_mat, rhs_mat)
        out = pl.store(c, [0, 0], out)
        return out


@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[256, 96], pl.BF16],
        rhs: pl.Tensor[[96, 640], pl.BF16],
        out: pl.Out[pl.Tensor[[256, 640], pl.FP32]],
    ) -> pl.Tensor[[256, 640], pl.FP32]:
        lhs_mat: pl.Tile[[256, 96], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(
            lhs, [0, 0], [256, 96], [256, 96], target_memory=pl.MemorySpace.Mat
        )
        rhs_mat: pl.Tile[[96, 640], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(
            rhs, [0, 0], [96, 640], [96, 640], target_memory=pl.MemorySpace.Mat
        )
        for c_o, (c_oc,) in pl.range(0, 256, 256, init_values=(out,)):
            c_a: pl.Tile[[256, 96], pl.BF16, pl.MemorySpace.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(
                lhs_mat,
                c_o,
                0,
                [256, 96],
                target_memory=pl.MemorySpace.Left,
            )
            for c_i, (c_ic,) in pl.pipeline(0, 640, 128, init_values=(c_oc,), stage=2, attrs={"pipeline_overlap_stores": False}):
                c_b: pl.Tile[[96, 128], pl.BF16, pl.MemorySpace.Right] = pl.tile.extract(
                    rhs_mat, 0, c_i, [96, 128], target_memory=pl.MemorySpace.Right
                )
                c_c: pl.Tile[[256, 128], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(
                    c_a, c_b
                )
                out_t0: pl.Tensor[[256, 640], pl.FP32] = pl.tile.store(
                    c_c, [c_o, c_i], c_ic
                )
                c_irv: pl.Tensor[[256, 640], pl.FP32] = pl.yield_(out_t0)
            c_orv: pl.Tensor[[256, 640], pl.FP32] = pl.yield_(c_irv)
        return c_orv
