import pl

M = pl.dynamic("M")


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[M, 64], pl.FP32], b: pl.Tensor[[M, 64], pl.FP32]) -> pl.Tensor[[M, 64], pl.FP32]:
        r: pl.Tensor[[M, 64], pl.FP32] = pl.add(a, b)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[128, 64], pl.FP32], b: pl.Tensor[[127, 64], pl.FP32]) -> pl.Tensor[[128, 64], pl.FP32]:
        c: pl.Tensor[[128, 64], pl.FP32] = self.kernel(a, b)  # error: 'M' of 'kernel' has conflicting bindings: 128 from 'a' and 127 from 'b'  # error-col: 59
        return c
