# A callee's Tile parameter without a memory space is Vec: a caller's Mat tile is moved to Vec.
import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.AIV)
    def neg(self, a: pl.Tile[[16, 128], pl.FP32],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        s: pl.Tile[[16, 128], pl.FP32] = pl.neg(a)
        r: pl.Tensor[[16, 128], pl.FP32] = pl.store(s, [0, 0], out)
        return r

    @pl.function(type=pl.FunctionType.InCore)
    def main(self, x: pl.Tensor[[16, 128], pl.FP32],
             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        t: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Mat)
        r: pl.Tensor[[16, 128], pl.FP32] = self.neg(t, out)
        return r


# moves: t_Vec
# decisions: neg.a=Vec:parameter_default main.t=Mat:explicit_kwarg
@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.AIV)
    def neg(self, a: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        s: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.neg(a)
        r: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(s, [0, 0], out)
        return r

    @pl.function(type=pl.FunctionType.InCore)
    def main(self, x: pl.Tensor[[16, 128], pl.FP32],
             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        t: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Mat] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory=pl.MemorySpace.Mat)
        t_Vec: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec, pl.TileView(blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)] = pl.tile.move(t, target_memory=pl.MemorySpace.Vec)
        r: pl.Tensor[[16, 128], pl.FP32] = self.neg(t_Vec, out)
        return r
