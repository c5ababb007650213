import pl


@pl.program
class Pad:
    @pl.function
    def main(self, a: pl.Tensor[[32, 32], pl.FP16], out: pl.Out[pl.Tensor[[32, 32], pl.FP16]]) -> pl.Tensor[[32, 32], pl.FP16]:
        t: pl.Tile[[32, 32], pl.FP16, pl.MemRef("pad")[0], pl.Mem.Vec] = pl.load(a, [0, 0], [32, 32])  # error: 'pad' was declared with a single slot, so it cannot be subscripted  # error-col: 39
        return pl.store(t, [0, 0], out)
