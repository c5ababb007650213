import pl

LABEL = "stage"


@pl.program
class Named:
    @pl.function
    def main(self, a: pl.Tensor[[32, 32], pl.FP16], out: pl.Out[pl.Tensor[[32, 32], pl.FP16]]) -> pl.Tensor[[32, 32], pl.FP16]:
        t: pl.Tile[[32, 32], pl.FP16, pl.MemRef(LABEL), pl.Mem.Vec] = pl.load(a, [0, 0], [32, 32])  # error: A declared allocation's name must be a non-empty string literal  # error-col: 49
        return pl.store(t, [0, 0], out)
