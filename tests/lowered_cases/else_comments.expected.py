"""A tensor-level kernel with an if: shown as it compiles, the comments written before, on and
at the end of its `else:` stay at its `else:`."""

import pl


@pl.program
class ElseComments:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[8, 128], pl.FP32],
        flip: pl.Scalar[pl.BOOL],
        out: pl.Out[pl.Tensor[[8, 128], pl.FP32]],
    ) -> pl.Tensor[[8, 128], pl.FP32]:
        x_vec: pl.Tile[[8, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
            x, [0, 0], [8, 128], [8, 128], target_memory=pl.MemorySpace.Vec
        )
        if flip:  # negated
            y_vec: pl.Tile[[8, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.neg(x_vec)
        # otherwise
        else:  # kept as it is
            y_vec: pl.Tile[[8, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.muls(x_vec, 1.0)
            # (end of the else block)
        out_tensor: pl.Tensor[[8, 128], pl.FP32] = pl.tile.store(y_vec, [0, 0], out)
        return out_tensor
