import pl


@pl.program
class K:
    # A vector op makes its result in Vec: annotated Acc, the name would be one space and its
    # value another.
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        x = pl.load(a, [0, 0], [16, 16])
        y: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc] = pl.add(x, x)  # error: 'y' is annotated Acc, but tile.add produces a Vec tile here
        z = pl.exp(y)
        return pl.store(z, [0, 0], out)
