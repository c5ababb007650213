import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        for i, (acc,) in pl.range(4, init_values=(a,)):
            if i < n:
                b = pl.add(acc, 1.0)
                if i == 2:
                    continue  # error: 'continue' inside an if whose branches yield values
                p = pl.yield_(b)
            else:
                p = pl.yield_(acc)
            r = pl.yield_(p)
        return r
