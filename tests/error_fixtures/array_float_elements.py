import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16], pl.INT32]) -> pl.Tensor[[16], pl.INT32]:
        arr = pl.array.create(4, dtype=pl.FP32)  # error: An array's elements must be integers, BOOL or TASK_ID, not pl.FP32
        return x
