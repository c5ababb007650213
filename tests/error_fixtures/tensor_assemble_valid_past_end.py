import pl


@pl.program
class K:
    @pl.function
    def f(self, x: pl.Tensor[[16, 4], pl.FP32], y: pl.Tensor[[16, 8], pl.FP32]) -> pl.Tensor[[16, 4], pl.FP32]:
        n = pl.set_validshape(y, 16, 6)
        z = pl.assemble(x, n, [0, 0])  # error: tensor.assemble writes past the end of dimension 1: offset 0 + extent 6 exceeds the target extent 4
        return z
