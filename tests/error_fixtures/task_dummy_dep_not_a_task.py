import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Scalar[pl.TASK_ID]:
        with pl.manual_scope():
            barrier = pl.system.task_dummy(deps=[x])  # error: deps= entries must be task ids
        return barrier
