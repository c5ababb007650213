import pl


@pl.program
class K:
    # Only a HOST SubWorker may leave its body to run time (tests/language_forms/host_subworker.py).
    @pl.function(level=pl.Level.CHIP, role=pl.Role.SubWorker)
    def callback(x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]: ...  # error: has no body, only `...`  # error-col: 74

    @pl.function
    def main(self, x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        return x
