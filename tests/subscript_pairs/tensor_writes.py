import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, c: pl.Tensor[[8, 4, 16, 32], pl.FP32], rhs: pl.Tensor[[16, 32], pl.FP32],
          wide: pl.Tensor[[16, 16], pl.FP32],
          i: pl.Scalar[pl.INDEX], j: pl.Scalar[pl.INDEX]) -> pl.Tensor[[8, 4, 16, 32], pl.FP32]:
        c[i : i + 1, 0:4] = pl.tensor.slice(c, [1, 4, 16, 32], [0, 0, 0, 0])
        c[i, j] = rhs  # the [16, 32] source is lifted to the [1, 1, 16, 32] window
        narrow = pl.tensor.set_validshape(wide, 8, 8)
        c[i, j, 0:8, 0:8] = narrow  # a padded source fits through its valid region
        return c


# == the same, written out ==
import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, c: pl.Tensor[[8, 4, 16, 32], pl.FP32], rhs: pl.Tensor[[16, 32], pl.FP32],
          wide: pl.Tensor[[16, 16], pl.FP32],
          i: pl.Scalar[pl.INDEX], j: pl.Scalar[pl.INDEX]) -> pl.Tensor[[8, 4, 16, 32], pl.FP32]:
        c = pl.tensor.assemble(c, pl.tensor.slice(c, [1, 4, 16, 32], [0, 0, 0, 0]), [i, 0, 0, 0])
        c = pl.tensor.assemble(c, pl.tensor.reshape(rhs, [1, 1, 16, 32]), [i, j, 0, 0])
        narrow = pl.tensor.set_validshape(wide, 8, 8)
        c = pl.tensor.assemble(c, pl.tensor.reshape(narrow, [1, 1, 16, 16], [1, 1, 8, 8]),
                               [i, j, 0, 0])
        return c
