import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, a: pl.Tensor[[16, 8], pl.FP32]) -> pl.Tensor[[16, 8], pl.FP32]:
        return a

    # auto_scope defaults to True: the compiler places the AUTO scopes, so a hand-placed one is refused.
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 8], pl.FP32]) -> pl.Tensor[[16, 8], pl.FP32]:
        for i in pl.range(2):
            with pl.scope(mode=pl.ScopeMode.AUTO):  # error: requires @pl.function(auto_scope=False)  # error-col: 18
                a = self.step(a)
        return a
