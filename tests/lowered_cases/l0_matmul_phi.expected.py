"""A K-chunked matmul whose accumulator a loop carries: the first chunk starts it (pl.matmul), the
others add to it (pl.matmul_acc), in the two branches of an if. Each chunk overflows L0 (BF16 on
910B), so each branch's matmul is tiled into a loop of its own, and the if's result is the value
either loop leaves; the regenerated file rebinds the accumulator in both branches."""

import pl


@pl.program
class L0MatmulPhi:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[128, 1024], pl.BF16],
        rhs: pl.Tensor[[1024, 64], pl.BF16],
        out: pl.Out[pl.Tensor[[128, 64], pl.FP32]],
    ) -> pl.Tensor[[128, 64], pl.FP32]:
        acc_acc: pl.Tile[[128, 64], pl.FP32, pl.MemorySpace.Acc] = pl.tile.create(
            [128, 64], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc
        )
        # two chunks of K = 512, each tiled into a loop over K
        for kb, (acc,) in pl.pipeline(2, init_values=(acc_acc,), stage=2):
            a_mat: pl.Tile[[128, 512], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(
                lhs, [0, kb * 512], [128, 512], [128, 512], target_memory=pl.MemorySpace.Mat
            )
            b_mat: pl.Tile[[512, 64], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(
                rhs, [kb * 512, 0], [512, 64], [512, 64], target_memory=pl.MemorySpace.Mat
            )
            if kb == 0:
                acc_l0_init: pl.Tile[[128, 64], pl.FP32, pl.MemorySpace.Acc] = pl.tile.create(
                    [128, 64], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc
                )  # the first chunk
                for acc_l0_ko, (acc_l0_c,) in pl.pipeline(0, 512, 128, init_values=(acc_l0_init,), stage=2):
                    acc_l0_a: pl.Tile[
                        [128, 128],
                        pl.BF16,
                        pl.MemorySpace.Left,
                        pl.TileView(blayout=pl.TileLayout.row_major),
                    ] = pl.tile.extract(
                        a_mat, 0, acc_l0_ko, [128, 128], target_memory=pl.MemorySpace.Left
                    )
                    acc_l0_b: pl.Tile[[128, 64], pl.BF16, pl.MemorySpace.Right] = pl.tile.extract(
                        b_mat, acc_l0_ko, 0, [128, 64], target_memory=pl.MemorySpace.Right
                    )
                    if acc_l0_ko == 0:
                        acc_l0_c_first: pl.Tile[
                            [128, 64],
                            pl.FP32,
                            pl.MemorySpace.Acc,
                        ] = pl.tile.matmul(acc_l0_a, acc_l0_b)
                    else:
                        acc_l0_c_first: pl.Tile[
                            [128, 64],
                            pl.FP32,
                            pl.MemorySpace.Acc,
                        ] = pl.tile.matmul_acc(acc_l0_c, acc_l0_a, acc_l0_b)
                    acc_acc_1: pl.Tile[[128, 64], pl.FP32, pl.MemorySpace.Acc] = pl.yield_(
                        acc_l0_c_first
                    )
            else:
                for acc_l0_ko_tensor, (acc_l0_c_acc_1,) in pl.pipeline(0, 512, 128, init_values=(acc,), stage=2):
                    acc_l0_a_left: pl.Tile[
                        [128, 128],
                        pl.BF16,
                        pl.MemorySpace.Left,
                        pl.TileView(blayout=pl.TileLayout.row_major),
                    ] = pl.tile.extract(
                        a_mat, 0, acc_l0_ko_tensor, [128, 128], target_memory=pl.MemorySpace.Left
                    )
                    acc_l0_b_right: pl.Tile[
                        [128, 64],
                        pl.BF16,
                        pl.MemorySpace.Right,
                    ] = pl.tile.extract(
                        b_mat, acc_l0_ko_tensor, 0, [128, 64], target_memory=pl.MemorySpace.Right
                    )
                    acc_l0_c_acc_2: pl.Tile[
                        [128, 64],
                        pl.FP32,
                        pl.MemorySpace.Acc,
                    ] = pl.tile.matmul_acc(acc_l0_c_acc_1, acc_l0_a_left, acc_l0_b_right)
                    acc_acc_1: pl.Tile[[128, 64], pl.FP32, pl.MemorySpace.Acc] = pl.yield_(
                        acc_l0_c_acc_2
                    )
            acc: pl.Tile[[128, 64], pl.FP32, pl.MemorySpace.Acc] = pl.yield_(acc_acc_1)
        out_tensor: pl.Tensor[[128, 64], pl.FP32] = pl.tile.store(acc, [0, 0], out)
        return out_tensor
