import pl


@pl.program
class K:
    # An alias is its value: annotated Mat, a Vec tile would be Mat by name only.
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        x = pl.load(a, [0, 0], [16, 16])
        y: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Mat] = x  # error: 'y' is annotated Mat, but 'x' is a Vec tile here
        z = pl.exp(y)
        return pl.store(z, [0, 0], out)
