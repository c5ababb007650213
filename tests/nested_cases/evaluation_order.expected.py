import pl


@pl.program
class NestedOrder:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        b: pl.Tensor[[16, 16], pl.FP32],
        bias: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        at: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Mat] = pl.load(
            a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat
        )
        bt: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Mat] = pl.load(
            b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat
        )
        at_Left: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Left] = pl.move(
            at, target_memory=pl.MemorySpace.Left
        )
        bt_Right: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Right] = pl.move(
            bt, target_memory=pl.MemorySpace.Right
        )
        mm: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(at_Left, bt_Right)
        y_load: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.load(bias, [0, 0], [16, 16])
        mm_Vec: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.move(
            mm,
            target_memory=pl.MemorySpace.Vec,
            blayout=pl.TileLayout.row_major,
            slayout=pl.TileLayout.none_box,
        )
        # the nested load is evaluated before mm's move to Vec: it is taken out
        y: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.add(mm_Vec, y_load)
        mm2: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(at_Left, bt_Right)
        z_load: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.load(bias, [0, 0], [16, 16])
        z_mul: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.mul(z_load, 2.0)
        mm2_Vec: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.move(
            mm2,
            target_memory=pl.MemorySpace.Vec,
            blayout=pl.TileLayout.row_major,
            slayout=pl.TileLayout.none_box,
        )
        # the mul and its load come before the move the exp reads: both taken out; the exp stays
        z: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.sub(z_mul, pl.exp(mm2_Vec))
        w: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.add(y, z)
        return pl.store(w, [0, 0], out)
