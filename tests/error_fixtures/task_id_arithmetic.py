import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k1(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.manual_scope():
            a, tid = pl.submit(self.k1, x)
            n = tid + 1  # error: A task id (`None`, or the id pl.submit gives) is not a number  # error-col: 17
        return a
