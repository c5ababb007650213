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
    scaled: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.mul(t, factor)
    return pl.exp(scaled)  # the value of the call


@pl.inline
def load_pair(
    a: pl.Tensor[[ROWS, COLS], pl.FP32], b: pl.Tensor[[ROWS, COLS], pl.FP32]
) -> tuple[pl.Tile[[ROWS, COLS], pl.FP32], pl.Tile[[ROWS, COLS], pl.FP32]]:
    # Two values come back as a tuple, unpacked by the caller as `x, y = load_pair(...)`.
    a_tile: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.load(a, [0, 0], [ROWS, COLS])
    b_tile: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.load(b, [0, 0], [ROWS, COLS])
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
        a_tile, b_tile = load_pair(a, b)
        # Two calls, two copies of the helper's statements (each with its own `scaled`).
        left: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = scaled_exp(a_tile, 0.5)
        right: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = scaled_exp(b_tile, 2.0)
        total: pl.Tile[[ROWS, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.add(left, right)
        out = pl.store(total, [0, 0], out)
        return out
