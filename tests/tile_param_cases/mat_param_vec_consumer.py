# A Mat Tile parameter read by a Vec-only op: the parameter keeps Mat, the op reads a move of it.
import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, a: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Mat],
             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        s: pl.Tile[[16, 128], pl.FP32] = pl.add(a, a)
        r: pl.Tensor[[16, 128], pl.FP32] = pl.store(s, [0, 0], out)
        return r


# moves: a_Vec
# decisions: main.a=Mat:parameter main.s=Vec:fixed_output
@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, a: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Mat],
             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        a_Vec: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec, pl.TileView(blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)] = pl.tile.move(a, target_memory=pl.MemorySpace.Vec)
        s: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec, pl.TileView(blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)] = pl.tile.add(a_Vec, a_Vec)
        r: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(s, [0, 0], out)
        return r
