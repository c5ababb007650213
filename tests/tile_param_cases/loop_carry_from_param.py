# A loop carried from a Mat Tile parameter ends up Vec (its body adds): back-propagation never
# re-places the parameter, so the loop starts from a move of it.
import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, p: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Mat], x: pl.Tensor[[16, 128], pl.FP32],
             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        x_tile: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128])
        for _i, (acc,) in pl.range(4, init_values=(p,)):
            s: pl.Tile[[16, 128], pl.FP32] = pl.add(acc, x_tile)
            acc_out: pl.Tile[[16, 128], pl.FP32] = pl.yield_(s)
        r: pl.Tensor[[16, 128], pl.FP32] = pl.store(acc_out, [0, 0], out)
        return r


# moves: p_Vec
# decisions: main.p=Mat:parameter main.acc=Vec:loop_backprop
@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, p: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Mat], x: pl.Tensor[[16, 128], pl.FP32],
             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        x_tile: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory=pl.MemorySpace.Vec)
        p_Vec: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec, pl.TileView(blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)] = pl.tile.move(p, target_memory=pl.MemorySpace.Vec)
        for _i, (acc,) in pl.range(4, init_values=(p_Vec,)):
            s: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec, pl.TileView(blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)] = pl.tile.add(acc, x_tile)
            acc_out: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec, pl.TileView(blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)] = pl.yield_(s)
        r: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(acc_out, [0, 0], out)
        return r
