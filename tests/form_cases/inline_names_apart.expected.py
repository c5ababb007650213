"""An @pl.inline helper whose calls compile differently, in a function that spells the name
the helper binds: the helper's value is named apart at each call, and the function's own
value keeps its name."""

# note: InlineNamesApart.kernel: the call of the @pl.inline helper twice at line 26 is shown as it compiles, at its place

import pl


@pl.inline
def twice(t: pl.Tile[[16, 128], pl.FP32]) -> pl.Tile[[16, 128], pl.FP32]:
    s = pl.add(t, t)
    return s


@pl.program
class InlineNamesApart:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        s: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [16, 128])
        m: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Mat] = pl.load(
            x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Mat
        )
        s_1: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.add(s, s)  # a Vec argument
        a: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = s_1
        # a Mat argument, moved to Vec
        m_Vec: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.move(
            m,
            target_memory=pl.MemorySpace.Vec,
            blayout=pl.TileLayout.row_major,
            slayout=pl.TileLayout.none_box,
        )
        s_2: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.add(m_Vec, m_Vec)
        b: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = s_2
        total: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.add(a, b)
        total: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.add(total, s)  # the function's own s
        out = pl.store(total, [0, 0], out)
        return out
