import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, a: pl.Tensor[[32], pl.INT32]) -> pl.Tensor[[32], pl.INT32]:
        return a

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[32], pl.INT32]) -> pl.Tensor[[32], pl.INT32]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            b = self.step(a)
            with pl.manual_scope():  # error: a manual scope may not be nested inside a manual scope  # error-col: 18
                c = self.step(b)
        return c
