import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def producer(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32], m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        with pl.manual_scope():
            tids = pl.array.create(4, pl.TASK_ID)
            for n in pl.parallel(4):
                a, t = pl.submit(self.producer, x)
                tids[n] = t
            b, _ = pl.submit(self.producer, x, deps=[tids[k] for k in range(4) if k != m])  # error: filter depends on a kernel value  # error-col: 83
        return b
