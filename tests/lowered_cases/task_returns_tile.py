import pl


@pl.program
class TaskReturnsTile:
    # The kernel's orchestration: its scope's body runs as a task.
    @pl.function
    def main(self, x: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="square"):
            # The task computes a tensor the function returns after the scope: compilation
            # stores its tile into a tensor the scope creates, so the task is shown as a
            # method of its own and the scope as the call of it.
            y: pl.Tensor[[64, 64], pl.FP32] = pl.mul(x, x)  # squared
        return y
