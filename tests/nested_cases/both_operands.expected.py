import pl


@pl.program
class NestedRetarget:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        b: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        c_load: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.load(a, [0, 0], [16, 16])
        c_load_1: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.load(b, [0, 0], [16, 16])
        c_load_Left: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Left] = pl.move(
            c_load, target_memory=pl.MemorySpace.Left
        )
        c_load_1_Right: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Right] = pl.move(
            c_load_1, target_memory=pl.MemorySpace.Right
        )
        # both nested loads feed the matmul through a move: each is taken out, named from c
        c: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(c_load_Left, c_load_1_Right)
        c_Vec: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.move(
            c,
            target_memory=pl.MemorySpace.Vec,
            blayout=pl.TileLayout.row_major,
            slayout=pl.TileLayout.none_box,
        )
        y: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.exp(pl.add(pl.neg(c_Vec), 1.0))
        out = pl.store(y, [0, 0], out)
        return out
