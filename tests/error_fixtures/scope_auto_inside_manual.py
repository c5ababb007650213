import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, a: pl.Tensor[[32], pl.INT32]) -> pl.Tensor[[32], pl.INT32]:
        return a

    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)
    def main(self, a: pl.Tensor[[32], pl.INT32]) -> pl.Tensor[[32], pl.INT32]:
        with pl.manual_scope():
            b = self.step(a)
            for i in pl.range(3):
                with pl.scope():  # error: an AUTO scope may not be nested inside a manual scope  # error-col: 22
                    c = self.step(b)
        return c
