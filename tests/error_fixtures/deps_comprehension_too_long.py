import pl

SLOTS = 2147483648


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def producer(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.manual_scope():
            tids = pl.array.create(4, pl.TASK_ID)
            for n in pl.parallel(4):
                a, t = pl.submit(self.producer, x)
                tids[n] = t
            b, _ = pl.submit(self.producer, x, deps=[tids[k % 4] for k in range(SLOTS)])  # error: A deps= comprehension unrolls 2147483648 entries, more than the 1024 a loop may unroll
        return b
