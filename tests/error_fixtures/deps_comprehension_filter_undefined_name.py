import pl

SLOTS = 4


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def producer(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.manual_scope():
            tids = pl.array.create(SLOTS, pl.TASK_ID)
            for n in pl.parallel(SLOTS):
                a, t = pl.submit(self.producer, x)
                tids[n] = t
            b, _ = pl.submit(self.producer, x, deps=[tids[k] for k in range(SLOTS) if k != SKIP])  # error: Undefined variable 'SKIP'  # error-col: 92
        return b
