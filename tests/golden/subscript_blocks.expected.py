"""Subscripts: windows of tensors and tiles written with Python's slice syntax.

Reading `x[a:b, :]` gives a view of rows a..b-1 (no copy); `x[i]` drops the indexed axis (numpy's
rule); `t[i, j]`, with one index per axis, reads one element. Writing `dst[a:b, :] = src` puts
`src` into that window and rebinds `dst` to the result. Each subscript is shorthand for one op
call, written in the comments below; `SubscriptBlocks.as_python()` prints the program with those
calls. A slice takes no step (`x[0:8:2]` is an error), and a tile window needs constant lower
bounds.
"""

import pl

ROWS = 32
HALF = 16
COLS = 64
SPLIT = 32


@pl.program
class SubscriptBlocks:
    @pl.function(type=pl.FunctionType.InCore)
    def combine(
        self,
        top: pl.Tensor[[HALF, COLS], pl.FP32],
        bottom: pl.Tensor[[HALF, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[HALF, COLS], pl.FP32]],
    ) -> pl.Tensor[[HALF, COLS], pl.FP32]:
        a: pl.Tile[[HALF, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.load(top, [0, 0], [HALF, COLS])
        b: pl.Tile[[HALF, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.load(
            bottom, [0, 0], [HALF, COLS]
        )
        # Tile windows: a[:, 0:SPLIT] is pl.tile.slice(a, [HALF, SPLIT], [0, 0]); an omitted
        # bound runs from 0 or to the end of the axis.
        left: pl.Tile[[HALF, 32], pl.FP32, pl.MemorySpace.Vec] = a[:, 0:SPLIT]
        right: pl.Tile[[HALF, 32], pl.FP32, pl.MemorySpace.Vec] = b[:, SPLIT:]
        pivot = a[0, 0]  # one element: pl.tile.read(a, [0, 0])
        summed: pl.Tile[[HALF, 32], pl.FP32, pl.MemorySpace.Vec] = pl.add(left, right)
        mixed: pl.Tile[[HALF, 32], pl.FP32, pl.MemorySpace.Vec] = pl.mul(summed, pivot)
        # A write rebinds `a`: a = pl.tile.assemble(a, mixed, [0, 0]).
        a[:, 0:SPLIT] = mixed
        out = pl.store(a, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        # Tensor views: x[0:HALF] is pl.tensor.slice(x, [HALF, COLS], [0, 0]); a missing
        # trailing index means the whole axis.
        top = x[0:HALF]
        bottom = x[HALF:]
        mixed = pl.create_tensor([HALF, COLS], dtype=pl.FP32)
        mixed = self.combine(top, bottom, mixed)
        # Tensor writes: out = pl.tensor.assemble(out, mixed, [0, 0]), then the second half.
        out[0:HALF] = mixed
        out[HALF:ROWS, :] = bottom
        return out
