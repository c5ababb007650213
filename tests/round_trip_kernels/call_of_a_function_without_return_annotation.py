import pl


# `kernel` has no return annotation: its results are what its body returns, which compiling
# writes into its signature; the orchestrator's call must take that type too, as a reparse
# of the printed program deduces it.
@pl.program
class CallOfUnannotated:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 16], pl.FP32], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        t = pl.load(a, [0, 0], [16, 16])
        c = pl.store(t, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        c = self.kernel(a, c)
        return c
