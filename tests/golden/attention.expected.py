"""An attention-style kernel: S = Q K^T, a row softmax built from vector ops, then O = P V.

Per 64-row block of K/V the scores come out of the cube unit in Acc; the softmax runs on the
vector unit (so inference moves S from Acc to Vec, row-major), and the FP16 probabilities move to
Left for the second matmul. Q is created by the root, so residency loads it (and its Left move)
once, before the block loop; K and V blocks stream inside it.
"""

import pl


@pl.program
class Attention:
    @pl.function(type=pl.FunctionType.InCore)
    def attend(
        self,
        q: pl.Tensor[[16, 64], pl.FP16],
        k: pl.Tensor[[256, 64], pl.FP16],
        v: pl.Tensor[[256, 64], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 256], pl.FP32]],
    ) -> pl.Tensor[[16, 256], pl.FP32]:
        q_mat: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Mat] = pl.tile.load(
            q, [0, 0], [16, 64], [16, 64], target_memory=pl.MemorySpace.Mat
        )
        q_mat_Left: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Left] = pl.tile.move(
            q_mat, target_memory=pl.MemorySpace.Left
        )
        for blk, (acc,) in pl.range(0, 256, 64, init_values=(out,)):
            k_blk_mat: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Mat] = pl.tile.load(
                k, [blk, 0], [64, 64], [64, 64], target_memory=pl.MemorySpace.Mat
            )
            v_blk_mat: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Mat] = pl.tile.load(
                v, [blk, 0], [64, 64], [64, 64], target_memory=pl.MemorySpace.Mat
            )
            # Scores of this block: [16, 64], produced in the accumulator.
            k_blk_t: pl.Tile[
                [64, 64],
                pl.FP16,
                pl.MemorySpace.Mat,
                pl.TileView(blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.col_major),
            ] = pl.tile.transpose_view(k_blk_mat)
            k_blk_t_Right: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Right] = pl.tile.move(
                k_blk_t, target_memory=pl.MemorySpace.Right
            )
            s_acc: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(
                q_mat_Left, k_blk_t_Right
            )
            # Row softmax on the vector unit.
            tmp_tile: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.create(
                [16, 128], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec
            )
            s_acc_Vec: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.move(
                s_acc,
                target_memory=pl.MemorySpace.Vec,
                blayout=pl.TileLayout.row_major,
                slayout=pl.TileLayout.none_box,
            )
            m_vec: pl.Tile[[16, 1], pl.FP32, pl.MemorySpace.Vec] = pl.tile.row_max(
                s_acc_Vec, tmp_tile
            )
            shifted_vec: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.row_expand_sub(
                s_acc_Vec, m_vec
            )
            e_vec: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(shifted_vec)
            tmp_tile_vec: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.create(
                [16, 128], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec
            )
            total_vec: pl.Tile[[16, 1], pl.FP32, pl.MemorySpace.Vec] = pl.tile.row_sum(
                e_vec, tmp_tile_vec
            )
            p_vec: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.row_expand_div(
                e_vec, total_vec
            )
            p16_vec: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Vec] = pl.tile.cast(
                p_vec, target_type=pl.FP16, mode='round'
            )
            p16_vec_Left: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Left] = pl.tile.move(
                p16_vec, target_memory=pl.MemorySpace.Left
            )
            v_blk_mat_Right: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Right] = pl.tile.move(
                v_blk_mat, target_memory=pl.MemorySpace.Right
            )
            o_acc: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(
                p16_vec_Left, v_blk_mat_Right
            )
            acc_next_tensor: pl.Tensor[[16, 256], pl.FP32] = pl.tile.store(o_acc, [0, blk], acc)
            result: pl.Tensor[[16, 256], pl.FP32] = pl.yield_(acc_next_tensor)
        return result

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        k: pl.Tensor[[256, 64], pl.FP16],
        v: pl.Tensor[[256, 64], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 256], pl.FP32]],
    ) -> pl.Tensor[[16, 256], pl.FP32]:
        q = pl.create_tensor([16, 64], dtype=pl.FP16)
        result = self.attend(q, k, v, out)
        return result
