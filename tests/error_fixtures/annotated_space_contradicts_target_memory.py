import pl


@pl.program
class K:
    # Two spaces written for one tile: the annotation's and target_memory='s.
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        x: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)  # error: 'x' is annotated Vec but its target_memory= says Mat
        y = pl.exp(x)
        return pl.store(y, [0, 0], out)
