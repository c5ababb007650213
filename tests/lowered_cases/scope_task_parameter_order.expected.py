import pl


@pl.program
class BlockwiseAccumulate:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        w: pl.Tensor[[32, 128], pl.FP32],
        acc: pl.Tensor[[16, 128], pl.FP32],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        # The scope's task first reads acc (the loop's initial value), then x; the load of x does
        # not change in the loop and compiles to a load before it, which the shown form writes
        # there: its task then reads x first.
        with pl.at(level=pl.Level.CORE_GROUP):
            x_vec: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
                x, [0, 0], [16, 32], [16, 32], target_memory=pl.MemorySpace.Vec
            )
            for blk, (acc,) in pl.range(4, init_values=(acc,)):
                col: pl.Scalar[pl.INDEX] = blk * 32
                prev_vec: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
                    acc, [0, col], [16, 32], [16, 32], target_memory=pl.MemorySpace.Vec
                )
                shifted_vec: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Vec] = pl.tile.adds(
                    x_vec, 2.0
                )
                w_blk_mat: pl.Tile[[32, 32], pl.FP32, pl.MemorySpace.Mat] = pl.tile.load(
                    w, [0, col], [32, 32], [32, 32], target_memory=pl.MemorySpace.Mat
                )
                shifted_vec_Left: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Left] = pl.tile.move(
                    shifted_vec, target_memory=pl.MemorySpace.Left
                )
                w_blk_mat_Right: pl.Tile[[32, 32], pl.FP32, pl.MemorySpace.Right] = pl.tile.move(
                    w_blk_mat, target_memory=pl.MemorySpace.Right
                )
                matmul_acc: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(
                    shifted_vec_Left, w_blk_mat_Right
                )
                matmul_acc_Vec: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Vec] = pl.tile.move(
                    matmul_acc,
                    target_memory=pl.MemorySpace.Vec,
                    blayout=pl.TileLayout.row_major,
                    slayout=pl.TileLayout.none_box,
                )
                nxt_vec: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Vec] = pl.tile.add(
                    prev_vec, matmul_acc_Vec
                )
                acc_tensor: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(nxt_vec, [0, col], acc)
                acc: pl.Tensor[[16, 128], pl.FP32] = pl.yield_(acc_tensor)
        return acc
