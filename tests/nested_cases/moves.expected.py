import pl


@pl.program
class NestedMoves:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        b: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        bt: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Mat] = pl.load(
            b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat
        )
        c_load: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Mat] = pl.load(
            a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat
        )
        c_load_Left: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Left] = pl.move(
            c_load, target_memory=pl.MemorySpace.Left
        )
        bt_Right: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Right] = pl.move(
            bt, target_memory=pl.MemorySpace.Right
        )
        # the nested load needs a move to Left: it alone is taken out
        c: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(c_load_Left, bt_Right)
        c_Vec: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.move(
            c,
            target_memory=pl.MemorySpace.Vec,
            blayout=pl.TileLayout.row_major,
            slayout=pl.TileLayout.none_box,
        )
        # the nested add reads c moved to Vec: renamed where it stands
        y: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.exp(
            pl.add(c_Vec, pl.mul(c_Vec, 0.5))
        )
        out = pl.store(y, [0, 0], out)
        return out
