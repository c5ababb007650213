import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        x: pl.Tile[[64, 64], pl.FP32] = pl.load(a, [0, 0], [64, 64])
        y: pl.Tile[[64, 32], pl.FP32] = pl.tile.gather_mask(x, pl.tile.MaskPattern.P0111)  # error: Unknown MaskPattern 'P0111'
        out = pl.store(y, [0, 0], out)
        return out
