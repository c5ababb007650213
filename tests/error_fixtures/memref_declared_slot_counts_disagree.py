import pl


@pl.program
class Twice:
    @pl.function
    def main(self, a: pl.Tensor[[32, 32], pl.FP16], out: pl.Out[pl.Tensor[[32, 32], pl.FP16]]) -> pl.Tensor[[32, 32], pl.FP16]:
        t: pl.Tile[[32, 32], pl.FP16, pl.MemRef("acc", slots=2)[0], pl.Mem.Vec] = pl.load(a, [0, 0], [32, 32])
        u: pl.Tile[[32, 32], pl.FP16, pl.MemRef("acc", slots=4)[1], pl.Mem.Vec] = pl.exp(t)  # error: Declarations of 'acc' disagree on how many slots it has (2 and 4)  # error-col: 39
        return pl.store(u, [0, 0], out)
