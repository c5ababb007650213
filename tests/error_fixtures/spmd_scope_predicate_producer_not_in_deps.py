import pl


@pl.program
class Gated:
    @pl.function(type=pl.FunctionType.InCore)
    def count(self, c: pl.Out[pl.Tensor[[8, 8], pl.INT32]]) -> pl.Tensor[[8, 8], pl.INT32]:
        t = pl.load(c, [0, 0], [8, 8])
        c = pl.store(t, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.InCore)
    def work(self, a: pl.Tensor[[8, 8], pl.FP32], b: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t = pl.load(a, [0, 0], [8, 8])
        b = pl.store(t, [0, 0], b)
        return b

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[8, 8], pl.FP32], b: pl.Out[pl.Tensor[[8, 8], pl.FP32]], c: pl.Out[pl.Tensor[[8, 8], pl.INT32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        with pl.manual_scope():
            c, counted = pl.submit(self.count, c)
            with pl.spmd(2, predicate=(c[0, 0] > 0)):  # error: predicate= reads 'c', which is written by the task bound to 'counted', but that task is not in deps=  # error-col: 40
                b = self.work(a, b)
        return b
