import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        for i, (acc,) in pl.range(n, init_values=(a,)):  # error: its body never calls pl.yield_
            b = pl.add(acc, acc)
        return acc
