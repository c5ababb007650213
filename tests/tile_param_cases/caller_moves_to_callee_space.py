# An InCore caller hands a Vec tile to a callee whose Tile parameter is Mat: the caller moves it.
import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(self, a: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Mat],
              out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        s: pl.Tile[[16, 128], pl.FP32] = pl.exp(a)
        r: pl.Tensor[[16, 128], pl.FP32] = pl.store(s, [0, 0], out)
        return r

    @pl.function(type=pl.FunctionType.InCore)
    def main(self, x: pl.Tensor[[16, 128], pl.FP32],
             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        t: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128])
        r: pl.Tensor[[16, 128], pl.FP32] = self.scale(t, out)
        return r


# moves: a_Vec t_Mat
# decisions: scale.a=Mat:parameter main.t=Vec:explicit_kwarg
@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(self, a: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Mat],
              out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        a_Vec: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec, pl.TileView(blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)] = pl.tile.move(a, target_memory=pl.MemorySpace.Vec)
        s: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec, pl.TileView(blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)] = pl.tile.exp(a_Vec)
        r: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(s, [0, 0], out)
        return r

    @pl.function(type=pl.FunctionType.InCore)
    def main(self, x: pl.Tensor[[16, 128], pl.FP32],
             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        t: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory=pl.MemorySpace.Vec)
        t_Mat: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Mat] = pl.tile.move(t, target_memory=pl.MemorySpace.Mat)
        r: pl.Tensor[[16, 128], pl.FP32] = self.scale(t_Mat, out)
        return r
