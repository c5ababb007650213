import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        with pl.manual_scope():
            tids = pl.array.create(2, pl.TASK_ID)
            with pl.at(level=pl.Level.CORE_GROUP) as t:
                out = pl.add(x, x)
            tids[0] = t
            with pl.at(level=pl.Level.CORE_GROUP, deps=[tids, tids[0]]):  # error: deps= cannot mix a whole task-id array
                out = pl.add(x, x)
        return out
