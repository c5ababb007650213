import pl


# A task launched with pl.submit is typed (*the callee's results, its task id): when compiling
# writes the results of an unannotated callee into its signature, the launch's type follows.
@pl.program
class SubmitOfUnannotated:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 16], pl.FP32], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        t = pl.load(a, [0, 0], [16, 16])
        c = pl.store(t, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        with pl.manual_scope():
            _tid = pl.submit(self.kernel, a, c)
        return c
