import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[64, 128], pl.FP32]) -> pl.Tensor[[64, 128], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 128])
        x[0:16, :] = t  # error: Subscript-write source must also be a tensor, got TileType
        return x
