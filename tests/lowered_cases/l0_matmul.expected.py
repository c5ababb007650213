import pl


@pl.program
class L0Matmul:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[128, 512], pl.BF16],
        rhs: pl.Tensor[[512, 64], pl.BF16],
        out: pl.Out[pl.Tensor[[128, 64], pl.FP32]],
    ) -> pl.Tensor[[128, 64], pl.FP32]:
        # K = 512 does not fit L0: the matmul is tiled into a loop over K
        lhs_mat: pl.Tile[[128, 512], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(
            lhs, [0, 0], [128, 512], [128, 512], target_memory=pl.MemorySpace.Mat
        )  # the tiled matmul
        rhs_mat: pl.Tile[[512, 64], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(
            rhs, [0, 0], [512, 64], [512, 64], target_memory=pl.MemorySpace.Mat
        )
        c_l0_init: pl.Tile[[128, 64], pl.FP32, pl.MemorySpace.Acc] = pl.tile.create(
            [128, 64], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc
        )
        for c_l0_ko, (c_l0_c,) in pl.pipeline(0, 512, 128, init_values=(c_l0_init,), stage=2):
            c_l0_a: pl.Tile[
                [128, 128],
                pl.BF16,
                pl.MemorySpace.Left,
                pl.TileView(blayout=pl.TileLayout.row_major),
            ] = pl.tile.extract(lhs_mat, 0, c_l0_ko, [128, 128], target_memory=pl.MemorySpace.Left)
            c_l0_b: pl.Tile[[128, 64], pl.BF16, pl.MemorySpace.Right] = pl.tile.extract(
                rhs_mat, c_l0_ko, 0, [128, 64], target_memory=pl.MemorySpace.Right
            )
            if c_l0_ko == 0:
                c_l0_c_first: pl.Tile[[128, 64], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(
                    c_l0_a, c_l0_b
                )
            else:
                c_l0_c_first: pl.Tile[[128, 64], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul_acc(
                    c_l0_c, c_l0_a, c_l0_b
                )
            c_acc: pl.Tile[[128, 64], pl.FP32, pl.MemorySpace.Acc] = pl.yield_(c_l0_c_first)
        out_tensor: pl.Tensor[[128, 64], pl.FP32] = pl.tile.store(c_acc, [0, 0], out)
        return out_tensor
