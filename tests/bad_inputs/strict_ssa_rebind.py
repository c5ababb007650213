import pl


@pl.program(strict_ssa=True)
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        b = pl.add(a, a)
        b = pl.mul(a, a)  # error: Variable 'b' is already defined
        return b
