import pl


@pl.program
class K:
    # A load reads GM into Vec or Mat only: a tile annotated Left cannot be made where it is
    # loaded, and nothing else could put it there before the vector op reads it.
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        x: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Left] = pl.load(a, [0, 0], [16, 16])  # error: 'x' is annotated Left, but a load reads GM into Vec or Mat only
        y = pl.exp(x)
        return pl.store(y, [0, 0], out)
