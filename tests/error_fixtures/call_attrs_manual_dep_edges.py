import pl


@pl.program
class Edges:
    @pl.function(type=pl.FunctionType.InCore)
    def twice(self, x: pl.Tensor[[16], pl.FP32], y: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        t = pl.load(x, [0], [16])
        return pl.store(pl.add(t, t), [0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16], pl.FP32], y: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        with pl.manual_scope():
            y, first = pl.submit(self.twice, x, y)
            y = self.twice(x, y, attrs={"manual_dep_edges": [first]})  # error: attrs={'manual_dep_edges': ...} is not accepted on a call to 'twice'  # error-col: 40
        return y
