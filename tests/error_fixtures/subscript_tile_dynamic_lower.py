import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[64, 128], pl.FP32], k: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 128], pl.FP32]:
        t = pl.load(x, [0, 0], [64, 128])
        u = t[:, k:]  # error: Dynamic lower bounds are not supported in tile subscript
        return pl.store(u, [0, 0], x)
