import pl


@pl.program
class NestedBeforeAMove:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        p: pl.Tensor[[32, 32], pl.FP32],
        q: pl.Tensor[[32, 32], pl.FP32],
        scale: pl.Tensor[[32, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        pm: pl.Tile[[32, 32], pl.FP32, pl.MemorySpace.Mat] = pl.load(
            p, [0, 0], [32, 32], target_memory=pl.MemorySpace.Mat
        )
        qm: pl.Tile[[32, 32], pl.FP32, pl.MemorySpace.Mat] = pl.load(
            q, [0, 0], [32, 32], target_memory=pl.MemorySpace.Mat
        )
        pl_: pl.Tile[[32, 32], pl.FP32, pl.MemorySpace.Left] = pl.move(
            pm, target_memory=pl.MemorySpace.Left
        )
        qr: pl.Tile[[32, 32], pl.FP32, pl.MemorySpace.Right] = pl.move(
            qm, target_memory=pl.MemorySpace.Right
        )
        prod: pl.Tile[[32, 32], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(pl_, qr)
        scaled_load: pl.Tile[[32, 32], pl.FP32, pl.MemorySpace.Vec] = pl.load(
            scale, [0, 0], [32, 32]
        )
        prod_Vec: pl.Tile[[32, 32], pl.FP32, pl.MemorySpace.Vec] = pl.move(
            prod,
            target_memory=pl.MemorySpace.Vec,
            blayout=pl.TileLayout.row_major,
            slayout=pl.TileLayout.none_box,
        )
        # the nested load is computed before prod moves to Vec: it is taken out, before the move
        scaled: pl.Tile[[32, 32], pl.FP32, pl.MemorySpace.Vec] = pl.mul(prod_Vec, scaled_load)
        out = pl.store(scaled, [0, 0], out)
        return out
