import pl

ROWS = 32
COLS = 16


@pl.program
class ConstantFullShape:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        flag: pl.Tensor[[ROWS], pl.INT32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        cond_tensor: pl.Scalar[pl.INT32] = pl.tensor.read(flag, [0])
        if cond_tensor > pl.const(0, pl.INT32):
            # a tensor-level fill: its tile fill's shape is spelled by the constant, as its type
            t_vec: pl.Tile[[1, COLS], pl.FP32, pl.MemorySpace.Vec] = pl.tile.full(
                [1, COLS], dtype=pl.FP32, value=1.0
            )
            out: pl.Tensor[[ROWS, COLS], pl.FP32] = pl.tile.store(t_vec, [0, 0], out)
        return out
