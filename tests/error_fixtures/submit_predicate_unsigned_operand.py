import pl


@pl.program
class Launch:
    @pl.function(type=pl.FunctionType.InCore)
    def body(self, a: pl.Tensor[[64, 32], pl.FP32], b: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        t = pl.load(a, [0, 0], [64, 32])
        b = pl.store(t, [0, 0], b)
        return b

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 32], pl.FP32], b: pl.Out[pl.Tensor[[64, 32], pl.FP32]], flag: pl.Tensor[[4, 2], pl.UINT32]) -> pl.Tensor[[64, 32], pl.FP32]:
        with pl.manual_scope():
            b, _ = pl.submit(self.body, a, b, predicate=(flag[0, 0] != 0))  # error: signed 8/16/32/64-bit integer tensor, got UINT32  # error-col: 58
        return b
