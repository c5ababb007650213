"""An `@pl.inline` helper: a few tile statements written once and spliced into each call site.

An inline function is not a function of the program (compare `self.kernel(...)` calls): every
call copies its body into the caller, with the parameters standing for the call's arguments, so
the helper may work on tiles inside an InCore kernel. It sees its own module's names (ROWS, COLS,
pl), never the caller's local variables. Its annotations are for the reader and for mypy: the
values are the call's arguments, whatever their types.
"""

import pl

ROWS = 16
COLS = 128


@pl.inline
def scaled_exp(t: pl.Tile[[ROWS, COLS], pl.FP32], factor: float) -> pl.Tile[[ROWS, COLS], pl.FP32]:
    # `t` is the caller's tile and `factor` its scalar: exp(t * factor).
    scaled = pl.mul(t, factor)
    return pl.exp(scaled)  # the value of the call


@pl.inline
def load_pair(
    a: pl.Tensor[[ROWS, COLS], pl.FP32], b: pl.Tensor[[ROWS, COLS], pl.FP32]
) -> tuple[pl.Tile[[ROWS, COLS], pl.FP32], pl.Tile[[ROWS, COLS], pl.FP32]]:
    # Two values come back as a tuple, unpacked by the caller as `x, y = load_pair(...)`.
    a_tile = pl.load(a, [0, 0], [ROWS, COLS])
    b_tile = pl.load(b, [0, 0], [ROWS, COLS])
    return a_tile, b_tile


@pl.program
class InlineHelper:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[ROWS, COLS], pl.FP32],
        b: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        a_tile: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
            a, [0, 0], [ROWS, COLS], [ROWS, COLS], target_memory=pl.MemorySpace.Vec
        )
        b_tile: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
            b, [0, 0], [ROWS, COLS], [ROWS, COLS], target_memory=pl.MemorySpace.Vec
        )
        _tuple_tmp = [a_tile, b_tile]
        a_tile: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = _tuple_tmp[0]
        b_tile: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = _tuple_tmp[1]
        scaled: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.tile.muls(a_tile, 0.5)
        exp: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(scaled)
        # Two calls, two copies of the helper's statements (each with its own `scaled`).
        left: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = exp
        scaled: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.tile.muls(b_tile, 2.0)
        exp: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(scaled)
        right: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = exp
        total: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.tile.add(left, right)
        out: pl.Tensor[[ROWS, COLS], pl.FP32] = pl.tile.store(total, [0, 0], out)
        return out
