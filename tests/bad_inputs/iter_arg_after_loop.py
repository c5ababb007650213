import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        for i, (acc,) in pl.range(4, init_values=(a,)):
            r = pl.yield_(pl.add(acc, acc))
        return acc  # error: Undefined variable 'acc'
