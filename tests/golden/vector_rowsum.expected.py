"""A vector kernel: elementwise products, a scalar scale, then a row reduction."""

import pl

ROWS = 16
COLS = 128


@pl.program
class VectorRowSum:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        y: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS, 1], pl.FP32]],
    ) -> pl.Tensor[[ROWS, 1], pl.FP32]:
        # Both operands go to the vector buffer.
        x_tile: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.load(
            x, [0, 0], [ROWS, COLS]
        )
        y_tile: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.load(
            y, [0, 0], [ROWS, COLS]
        )
        prod: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.mul(x_tile, y_tile)
        scaled: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.mul(prod, 0.5)  # tile * scalar: the scalar form tile.muls
        shifted: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.exp(scaled)
        tmp: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.create_tile(
            [ROWS, COLS], dtype=pl.FP32
        )
        total: pl.Tile[[ROWS, 1], pl.FP32, pl.MemorySpace.Vec] = pl.row_sum(shifted, tmp)
        out = pl.store(total, [0, 0], out)
        return out
