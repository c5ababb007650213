"""A tensor-level matmul of a transposed operand: its compiled view's type is longer than a
line, and is broken by the printer's rule."""

import pl


@pl.program
class LongView:
    @pl.function(type=pl.FunctionType.InCore)
    def scores(
        self,
        q: pl.Tensor[[16, 64], pl.FP16],
        k: pl.Tensor[[64, 64], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        # Q K^T: K is read transposed.
        q_mat: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Mat] = pl.tile.load(
            q, [0, 0], [16, 64], [16, 64], target_memory=pl.MemorySpace.Mat
        )
        k_mat: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Mat] = pl.tile.load(
            k, [0, 0], [64, 64], [64, 64], target_memory=pl.MemorySpace.Mat
        )
        k_mat_t: pl.Tile[
            [64, 64],
            pl.FP16,
            pl.MemorySpace.Mat,
            pl.TileView(blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.col_major),
        ] = pl.tile.transpose_view(k_mat)
        q_mat_Left: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Left] = pl.tile.move(
            q_mat, target_memory=pl.MemorySpace.Left
        )
        k_mat_t_Right: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Right] = pl.tile.move(
            k_mat_t, target_memory=pl.MemorySpace.Right
        )
        s_acc: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(
            q_mat_Left, k_mat_t_Right
        )
        out_tensor: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(s_acc, [0, 0], out)
        return out_tensor
