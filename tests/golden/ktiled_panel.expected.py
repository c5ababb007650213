"""A K-tiled panel matmul: [128, 512] x [512, 64] BF16 overflows L0A/L0B on 910B.

auto_tile_matmul_l0 splits each matmul into a pipelined K loop (k = 128) that extracts Left/Right
slabs from the Mat panels; residency then hoists only the whole-panel LHS load out of the N loop,
leaving the K-dependent extracts where they are.
"""

import pl


@pl.program
class KTiledPanel:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[128, 512], pl.BF16],
        rhs: pl.Tensor[[512, 256], pl.BF16],
        out: pl.Out[pl.Tensor[[128, 256], pl.FP32]],
    ) -> pl.Tensor[[128, 256], pl.FP32]:
        lhs_mat: pl.Tile[[128, 512], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(
            lhs, [0, 0], [128, 512], [128, 512], target_memory=pl.MemorySpace.Mat
        )
        for n, (acc,) in pl.range(0, 256, 64, init_values=(out,)):
            rhs_n_mat: pl.Tile[[512, 64], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(
                rhs, [0, n], [512, 64], [512, 64], target_memory=pl.MemorySpace.Mat
            )
            c_n_l0_init: pl.Tile[[128, 64], pl.FP32, pl.MemorySpace.Acc] = pl.tile.create(
                [128, 64], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc
            )
            for c_n_l0_ko, (c_n_l0_c,) in pl.pipeline(0, 512, 128, init_values=(c_n_l0_init,), stage=2):
                c_n_l0_a: pl.Tile[
                    [128, 128],
                    pl.BF16,
                    pl.MemorySpace.Left,
                    pl.TileView(blayout=pl.TileLayout.row_major),
                ] = pl.tile.extract(
                    lhs_mat, 0, c_n_l0_ko, [128, 128], target_memory=pl.MemorySpace.Left
                )
                c_n_l0_b: pl.Tile[[128, 64], pl.BF16, pl.MemorySpace.Right] = pl.tile.extract(
                    rhs_n_mat, c_n_l0_ko, 0, [128, 64], target_memory=pl.MemorySpace.Right
                )
                if c_n_l0_ko == 0:
                    c_n_l0_c_first: pl.Tile[
                        [128, 64],
                        pl.FP32,
                        pl.MemorySpace.Acc,
                    ] = pl.tile.matmul(c_n_l0_a, c_n_l0_b)
                else:
                    c_n_l0_c_first: pl.Tile[
                        [128, 64],
                        pl.FP32,
                        pl.MemorySpace.Acc,
                    ] = pl.tile.matmul_acc(c_n_l0_c, c_n_l0_a, c_n_l0_b)
                c_n_acc: pl.Tile[[128, 64], pl.FP32, pl.MemorySpace.Acc] = pl.yield_(c_n_l0_c_first)
            acc_next_tensor: pl.Tensor[[128, 256], pl.FP32] = pl.tile.store(c_n_acc, [0, n], acc)
            result: pl.Tensor[[128, 256], pl.FP32] = pl.yield_(acc_next_tensor)
        return result

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        rhs: pl.Tensor[[512, 256], pl.BF16],
        out: pl.Out[pl.Tensor[[128, 256], pl.FP32]],
    ) -> pl.Tensor[[128, 256], pl.FP32]:
        panel = pl.create_tensor([128, 512], dtype=pl.BF16)
        result = self.kernel(panel, rhs, out)
        return result
