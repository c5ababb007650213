import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        t: pl.Tile[[64], pl.FP32] = pl.load(x, [0], [64])
        t = pl.add(t, None)  # error: A task id (`None`, or the id pl.submit gives) is not a number  # error-col: 23
        return pl.store(t, [0], x)
