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
        cond = pl.read(flag, [0])
        if cond > 0:
            # a tensor-level fill: its tile fill's shape is spelled by the constant, as its type
            t = pl.full([1, COLS], dtype=pl.FP32, value=1.0)
            out[0:1, :] = t
        return out
