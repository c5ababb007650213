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
    def main(self, a: pl.Tensor[[8, 8], pl.FP32], b: pl.Out[pl.Tensor[[8, 8], pl.FP32]], c: pl.Out[pl.Tensor[[8, 8], pl.INT32]], d: pl.Out[pl.Tensor[[8, 8], pl.INT32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        with pl.manual_scope():
            c, task = pl.submit(self.count, c)
            # `task` now names the second launch: the one that writes `c` is no longer listed.
            d, task = pl.submit(self.count, d)
            b, _ = pl.submit(self.work, a, b, deps=[task], predicate=(c[2, 3] >= 1))  # error: predicate= reads 'c', which is written by the task bound to 'task' (since rebound  # error-col: 71
        return b
