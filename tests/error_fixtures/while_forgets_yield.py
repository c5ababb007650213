import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        for (acc, k) in pl.while_(init_values=(a, 0)):  # error: the loop carries 'acc' (init_values) but its body never calls pl.yield_
            pl.cond(k < n)
            b = pl.add(acc, acc)
        c = pl.add(acc, acc)
        return c
