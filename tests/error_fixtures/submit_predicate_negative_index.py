import pl


@pl.program
class Launch:
    @pl.function(type=pl.FunctionType.InCore)
    def body(self, a: pl.Tensor[[64, 32], pl.FP32], b: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        t = pl.load(a, [0, 0], [64, 32])
        b = pl.store(t, [0, 0], b)
        return b

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 32], pl.FP32], b: pl.Out[pl.Tensor[[64, 32], pl.FP32]], flag: pl.Tensor[[4, 2], pl.INT32]) -> pl.Tensor[[64, 32], pl.FP32]:
        with pl.manual_scope():
            b, _ = pl.submit(self.body, a, b, predicate=(flag[-1, 0] > 0))  # error: tensor.read index 0 is provably negative (-1)  # error-col: 58
        return b
