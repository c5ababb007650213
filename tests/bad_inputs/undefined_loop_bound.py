import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        for i in pl.range(n_iters):  # error: Undefined variable 'n_iters'
            a = pl.add(a, a)
        return a
