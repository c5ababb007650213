import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        top = x[0:8, :]  # rows 0..7: a [8, 16] view
        bottom = x[8:]  # missing trailing indices are `:`
        row = x[m]  # a scalar index drops its dimension: a [16] view of row m
        corner = x[m : m + 4, 12:]  # a symbolic window whose extent (m + 4) - m folds to 4
        v = x[2, 3]  # one index per dimension reads an element
        out[0:8, :] = pl.add(top, bottom)
        out[8:16] = pl.mul(bottom, v)
        out[m] = pl.add(row, row)  # the [16] source is reshaped to the [1, 16] window
        out[12:16, 0:4] = corner
        return out
