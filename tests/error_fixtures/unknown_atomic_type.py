import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        x: pl.Tile[[64, 64], pl.FP32] = pl.load(a, [0, 0], [64, 64])
        out = pl.store(x, [0, 0], out, atomic=pl.AtomicType.Mul)  # error: Unknown AtomicType 'Mul'
        return out
