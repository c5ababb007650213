import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        y = pl.mul(x, 2.0)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 64], pl.FP32]:
        for i, (acc,) in pl.range(0, 3, 1, init_values=(x,)):
            if n > 2:
                nxt = pl.yield_(self.kernel(acc))
            else:
                nxt = pl.yield_(pl.add(self.kernel(acc), acc))
            res = pl.yield_(nxt)
        return res
