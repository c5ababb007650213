import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        with pl.manual_scope():
            tids = pl.array.create(2, pl.TASK_ID)
            for n in pl.parallel(2):
                y, t = pl.submit(self.k, x)
                tids[n] = t
            z, _ = pl.submit(self.k, x, deps=[tids, tids[0]])  # error: cannot mix a whole task-id array with its elements
        return z
