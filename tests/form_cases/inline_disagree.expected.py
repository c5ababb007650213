"""An @pl.inline helper whose calls compile differently: each call's compiled statements stand
at the call, and the helper stays as written."""

# note: the @pl.inline helper twice stays as written: its calls give the statement at line 13 other types, spaces or moves, so each call's compiled statements stand at the call
# note: InlineDisagree.kernel: the call of the @pl.inline helper twice at line 28 is shown as it compiles, at its place, below the level it is written at (the calls of the @pl.inline helper twice compile differently

import pl


@pl.inline
def twice(t: pl.Tile[[16, 128], pl.FP32]) -> pl.Tile[[16, 128], pl.FP32]:
    # The first call passes a Vec tile; the second a Mat one, which must move to Vec.
    s = pl.add(t, t)
    return s


@pl.program
class InlineDisagree:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        v: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [16, 128])
        m: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Mat] = pl.load(
            x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Mat
        )
        s: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.add(v, v)  # no move
        a: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = s
        m_Vec: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.move(
            m,
            target_memory=pl.MemorySpace.Vec,
            blayout=pl.TileLayout.row_major,
            slayout=pl.TileLayout.none_box,
        )  # a move to Vec
        s: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.add(m_Vec, m_Vec)
        b: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = s
        total: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.add(a, b)
        out = pl.store(total, [0, 0], out)
        return out
