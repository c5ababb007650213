import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, a: pl.Tensor[[32], pl.FP16]) -> pl.Tensor[[32], pl.FP16]:
        return a

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[32], pl.FP16]) -> pl.Tensor[[32], pl.FP16]:
        # pl.manual_scope() is the bare alias of pl.scope(mode=MANUAL): it takes nothing.
        with pl.manual_scope(mode=pl.ScopeMode.MANUAL):  # error: pl.manual_scope() does not accept arguments  # error-col: 30
            b = self.step(a)
        return b
