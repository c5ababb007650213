import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[64], pl.FP32], ret0__out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(x, [0], [64])
        return pl.store(pl.add(t, t), [0], ret0__out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.manual_scope():
            # the Out argument is left to the runtime, which allocates it
            a, _tid = pl.submit(self.kernel, x)
        return a
