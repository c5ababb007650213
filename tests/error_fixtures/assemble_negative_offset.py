import pl


@pl.program
class K:
    @pl.function
    def f(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.Tensor[[8, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        z = pl.assemble(x, y, [-1, 0])  # error: tensor.assemble offset 0 is provably negative (-1)
        return z
