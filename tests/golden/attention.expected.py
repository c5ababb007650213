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
            k_blk__tile: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Mat] = pl.tile.load(
                k, [blk, 0], [64, 64], [64, 64], target_memory=pl.MemorySpace.Mat
            )
            v_blk__tile: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Mat] = pl.tile.load(
                v, [blk, 0], [64, 64], [64, 64], target_memory=pl.MemorySpace.Mat
            )
            k_blk__tile_t: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Mat, pl.TileView(blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.col_major)] = pl.tile.transpose_view(
                k_blk__tile,
            )
            k_blk__tile_t_Right: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Right] = pl.tile.move(
                k_blk__tile_t, target_memory=pl.MemorySpace.Right
            )
            # Scores of this block: [16, 64], produced in the accumulator.
            s__tile: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(
                q_mat_Left, k_blk__tile_t_Right
            )
            tmp_tile: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.create(
                [16, 128], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec
            )
            s__tile_Vec: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.move(
                s__tile,
                target_memory=pl.MemorySpace.Vec,
                blayout=pl.TileLayout.row_major,
                slayout=pl.TileLayout.none_box,
            )
            # Row softmax on the vector unit.
            m__tile: pl.Tile[[16, 1], pl.FP32, pl.MemorySpace.Vec] = pl.tile.row_max(
                s__tile_Vec, tmp_tile
            )
            shifted__tile: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.row_expand_sub(
                s__tile_Vec, m__tile
            )
            e__tile: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(shifted__tile)
            tmp_tile_1: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.create(
                [16, 128], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec
            )
            total__tile: pl.Tile[[16, 1], pl.FP32, pl.MemorySpace.Vec] = pl.tile.row_sum(
                e__tile, tmp_tile_1
            )
            p__tile: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.row_expand_div(
                e__tile, total__tile
            )
            p16__tile: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Vec] = pl.tile.cast(
                p__tile, target_type=pl.FP16, mode='round'
            )
            p16__tile_Left: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Left] = pl.tile.move(
                p16__tile, target_memory=pl.MemorySpace.Left
            )
            v_blk__tile_Right: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Right] = pl.tile.move(
                v_blk__tile, target_memory=pl.MemorySpace.Right
            )
            o__tile: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(
                p16__tile_Left, v_blk__tile_Right
            )
            acc_next__tile: pl.Tensor[[16, 256], pl.FP32] = pl.tile.store(
                o__tile, [0, blk], acc
            )
            result: pl.Tensor[[16, 256], pl.FP32] = pl.yield_(acc_next__tile)
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
