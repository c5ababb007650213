import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, a: pl.Tensor[[32], pl.FP32]) -> pl.Tensor[[32], pl.FP32]:
        return a

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[32], pl.FP32]) -> pl.Tensor[[32], pl.FP32]:
        b, tid = pl.submit(self.step, a)
        # Edges are deps=[...] of a submit; a plain call has no surface for them.
        c, _ = pl.submit(self.step, b, attrs={"manual_dep_edges": [tid]})  # error: attrs={'manual_dep_edges': ...} is not accepted on a call  # error-col: 47
        return c
