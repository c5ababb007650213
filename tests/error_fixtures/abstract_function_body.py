import pl


@pl.program
class K:
    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def callback(x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]: ...  # error: has no body, only `...`  # error-col: 74

    @pl.function
    def main(self, x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        return x
